CREATE TABLE a (k int, v int);
CREATE TABLE b (k int, v int);
CREATE TABLE c (k int, v int);
SELECT 1 FROM (a JOIN b ON a.k < b.k) JOIN c ON b.k <=> c.k
