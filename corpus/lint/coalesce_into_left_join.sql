-- The coalesce case of docs/design.md section 4; coalesce_into_left_join.json is its plan
-- with an unsafe consumer of coalesce(b.k, 0) on b, as an optimizer might write it.
CREATE TABLE a (k int, v int);
CREATE TABLE b (k int, v int);
CREATE TABLE c (k int, v int);
SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c ON coalesce(b.k, 0) = c.k;
