-- Trino #13109, before: NULL-padded refunds read as 0.
SELECT o_id, coalesce(r_amount, 0) AS refunded
FROM orders LEFT JOIN returns ON o_id = r_order;
