-- A sound rewrite of the original: the same replacement as a CASE above the join.
SELECT o_id, CASE WHEN r_amount IS NULL THEN 0 ELSE r_amount END AS refunded
FROM orders LEFT JOIN returns ON o_id = r_order;
