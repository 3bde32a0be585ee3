-- Trino #13109, after: the coalesce was pushed below the LEFT JOIN, into its
-- NULL-generating side, where it no longer sees the padding NULLs.
SELECT o_id, r.refunded
FROM orders LEFT JOIN (SELECT r_order, coalesce(r_amount, 0) AS refunded FROM returns) r
  ON o_id = r.r_order;
