CREATE TABLE t (k int);
WITH c0 AS (SELECT k FROM t),
c1 AS (SELECT x.k FROM c0 x JOIN c0 y ON x.k = y.k),
c2 AS (SELECT x.k FROM c1 x JOIN c1 y ON x.k = y.k),
c3 AS (SELECT x.k FROM c2 x JOIN c2 y ON x.k = y.k),
c4 AS (SELECT x.k FROM c3 x JOIN c3 y ON x.k = y.k),
c5 AS (SELECT x.k FROM c4 x JOIN c4 y ON x.k = y.k),
c6 AS (SELECT x.k FROM c5 x JOIN c5 y ON x.k = y.k),
c7 AS (SELECT x.k FROM c6 x JOIN c6 y ON x.k = y.k),
c8 AS (SELECT x.k FROM c7 x JOIN c7 y ON x.k = y.k),
c9 AS (SELECT x.k FROM c8 x JOIN c8 y ON x.k = y.k),
c10 AS (SELECT x.k FROM c9 x JOIN c9 y ON x.k = y.k),
c11 AS (SELECT x.k FROM c10 x JOIN c10 y ON x.k = y.k),
c12 AS (SELECT x.k FROM c11 x JOIN c11 y ON x.k = y.k),
c13 AS (SELECT x.k FROM c12 x JOIN c12 y ON x.k = y.k),
c14 AS (SELECT x.k FROM c13 x JOIN c13 y ON x.k = y.k)
SELECT k FROM c14;
