-- The tables of the LIMIT example (rfguard equiv --schema shop_schema.sql ...).
CREATE TABLE customers (c_id int, c_region int, c_segment int);
CREATE TABLE regions (g_id int, g_name int);
CREATE TABLE segments (s_id int, s_discount int);
CREATE TABLE returns (r_order int, r_amount int);
CREATE TABLE orders (o_id int, o_total int);
