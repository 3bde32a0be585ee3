CREATE TABLE t (k int);
SELECT "a
b" FROM t;
