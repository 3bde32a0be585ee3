-- The worked cases of the design (section 4): runtime filters through outer
-- joins, null-safe equality, anti joins and LIMIT. Planning them here shows
-- the normalised plans the runtime-filter rules start from.
CREATE TABLE a (k int, v int);
CREATE TABLE b (k int, v int);
CREATE TABLE c (k int, v int);

-- name: coalesce_into_null_generating_side
SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c ON coalesce(b.k, 0) = c.k;

-- name: plain_key_through_left_join
SELECT * FROM a LEFT JOIN b ON a.k = b.k JOIN c ON b.k = c.k;

-- name: null_safe_parent
SELECT * FROM (a LEFT JOIN b ON a.k = b.k) JOIN c ON b.k <=> c.k;

-- name: full_join_plain_key
SELECT * FROM (a FULL JOIN b ON a.k = b.k) JOIN c ON a.k = c.k;

-- name: full_join_coalesce
SELECT * FROM (a FULL JOIN b ON a.k = b.k) JOIN c ON coalesce(a.k, 0) = c.k;

-- name: left_anti_probe
SELECT * FROM a LEFT ANTI JOIN b ON a.k = b.k;

-- name: not_in_probe
SELECT * FROM a WHERE a.k NOT IN (SELECT k FROM b);

-- name: limit_blocks
SELECT * FROM (SELECT * FROM a ORDER BY a.v LIMIT 10) x JOIN b ON x.k = b.k;

-- name: anti_join_with_or
SELECT * FROM a LEFT ANTI JOIN b ON a.k = b.k OR a.v = b.v;

-- name: left_join_chain_over_union
SELECT * FROM (SELECT k FROM a UNION ALL SELECT k FROM b) u LEFT JOIN c ON u.k = c.k JOIN b ON c.k = b.k;
