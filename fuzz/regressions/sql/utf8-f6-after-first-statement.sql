CREATE TABLE a (k int, v int);
CREATE TABLE b (k int, v int);
CRb.k EATE TABLE c (k int, v int);;ö¬º»ECT 1 FROM (a LEFT SEMI JOIN b ON a.k = b.k) JOIN c ON abs(a.k)is_null = c.k;
