-- The tables of the rewrite examples (rfguard equiv --schema schema.sql ...).
CREATE TABLE orders (o_id int, o_cust int, o_total int);
CREATE TABLE returns (r_order int, r_amount int);
