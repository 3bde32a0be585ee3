-- The customer of the latest order, when that order was a large one, with
-- the customer's region, segment and returns.
SELECT c.c_id, g.g_name, s.s_discount, r.r_amount
FROM customers c JOIN regions g ON c.c_region = g.g_id
  JOIN segments s ON c.c_segment = s.s_id
  LEFT JOIN returns r ON c.c_id = r.r_order
  JOIN (SELECT o_id FROM (SELECT o_id, o_total FROM orders ORDER BY o_id DESC LIMIT 1) AS latest
        WHERE o_total > 100) AS big ON c.c_id = big.o_id;
