-- After a rule pushed the filter below the LIMIT: now the latest of the large
-- orders, another question. Five tables to bound 2 are too many databases to
-- search them all; the solver finds the difference.
SELECT c.c_id, g.g_name, s.s_discount, r.r_amount
FROM customers c JOIN regions g ON c.c_region = g.g_id
  JOIN segments s ON c.c_segment = s.s_id
  LEFT JOIN returns r ON c.c_id = r.r_order
  JOIN (SELECT o_id FROM orders WHERE o_total > 100 ORDER BY o_id DESC LIMIT 1) AS big
    ON c.c_id = big.o_id;
