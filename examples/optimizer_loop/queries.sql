-- Queries for the optimizer-loop example. The toy optimizer's filter pushdown
-- ignores outer joins, as several engines' first versions did.
CREATE TABLE a (k int, v int);
CREATE TABLE b (k int, v int);
CREATE TABLE c (k int, v int);

-- name: inner_chain
SELECT * FROM a JOIN b ON a.k = b.k JOIN c ON b.v = c.k;

-- name: null_safe_parent
SELECT * FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k;
