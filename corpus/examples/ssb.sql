-- Star Schema Benchmark (O'Neil et al., revision 3): schema with scale-factor-1
-- row counts, distinct values of keys and attributes, and the 13 queries. The date dimension is named dates, as most
-- engines do, since DATE is a keyword.
CREATE TABLE lineorder (lo_orderkey int NOT NULL, lo_linenumber int NOT NULL, lo_custkey int NOT NULL, lo_partkey int NOT NULL, lo_suppkey int NOT NULL, lo_orderdate int NOT NULL, lo_orderpriority char(15) NOT NULL, lo_shippriority char(1) NOT NULL, lo_quantity int NOT NULL, lo_extendedprice int NOT NULL, lo_ordtotalprice int NOT NULL, lo_discount int NOT NULL, lo_revenue int NOT NULL, lo_supplycost int NOT NULL, lo_tax int NOT NULL, lo_commitdate int NOT NULL, lo_shipmode char(10) NOT NULL) WITH (rows = 6000000, distribution_key = 'lo_orderkey', ndv_lo_orderkey = 1500000, ndv_lo_custkey = 20000, ndv_lo_partkey = 200000, ndv_lo_suppkey = 2000, ndv_lo_orderdate = 2406, ndv_lo_discount = 11, ndv_lo_quantity = 50);
CREATE TABLE customer (c_custkey int NOT NULL PRIMARY KEY, c_name varchar(25) NOT NULL, c_address varchar(25) NOT NULL, c_city char(10) NOT NULL, c_nation char(15) NOT NULL, c_region char(12) NOT NULL, c_phone char(15) NOT NULL, c_mktsegment char(10) NOT NULL) WITH (rows = 30000, ndv_c_city = 250, ndv_c_nation = 25, ndv_c_region = 5);
CREATE TABLE supplier (s_suppkey int NOT NULL PRIMARY KEY, s_name char(25) NOT NULL, s_address varchar(25) NOT NULL, s_city char(10) NOT NULL, s_nation char(15) NOT NULL, s_region char(12) NOT NULL, s_phone char(15) NOT NULL) WITH (rows = 2000, ndv_s_city = 250, ndv_s_nation = 25, ndv_s_region = 5);
CREATE TABLE part (p_partkey int NOT NULL PRIMARY KEY, p_name varchar(22) NOT NULL, p_mfgr char(6) NOT NULL, p_category char(7) NOT NULL, p_brand1 char(9) NOT NULL, p_color varchar(11) NOT NULL, p_type varchar(25) NOT NULL, p_size int NOT NULL, p_container char(10) NOT NULL) WITH (rows = 200000, ndv_p_mfgr = 5, ndv_p_category = 25, ndv_p_brand1 = 1000);
CREATE TABLE dates (d_datekey int NOT NULL PRIMARY KEY, d_date char(18) NOT NULL, d_dayofweek char(9) NOT NULL, d_month char(9) NOT NULL, d_year int NOT NULL, d_yearmonthnum int NOT NULL, d_yearmonth char(7) NOT NULL, d_daynuminweek int NOT NULL, d_daynuminmonth int NOT NULL, d_daynuminyear int NOT NULL, d_monthnuminyear int NOT NULL, d_weeknuminyear int NOT NULL, d_sellingseason varchar(12) NOT NULL, d_lastdayinweekfl int NOT NULL, d_lastdayinmonthfl int NOT NULL, d_holidayfl int NOT NULL, d_weekdayfl int NOT NULL) WITH (rows = 2556, ndv_d_year = 7, ndv_d_yearmonthnum = 84, ndv_d_yearmonth = 84, ndv_d_weeknuminyear = 53);

-- name: q1.1
select sum(lo_extendedprice * lo_discount) as revenue from lineorder, dates
where lo_orderdate = d_datekey and d_year = 1993 and lo_discount between 1 and 3 and lo_quantity < 25;

-- name: q1.2
select sum(lo_extendedprice * lo_discount) as revenue from lineorder, dates
where lo_orderdate = d_datekey and d_yearmonthnum = 199401 and lo_discount between 4 and 6
  and lo_quantity between 26 and 35;

-- name: q1.3
select sum(lo_extendedprice * lo_discount) as revenue from lineorder, dates
where lo_orderdate = d_datekey and d_weeknuminyear = 6 and d_year = 1994 and lo_discount between 5 and 7
  and lo_quantity between 26 and 35;

-- name: q2.1
select sum(lo_revenue), d_year, p_brand1 from lineorder, dates, part, supplier
where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey
  and p_category = 'MFGR#12' and s_region = 'AMERICA'
group by d_year, p_brand1 order by d_year, p_brand1;

-- name: q2.2
select sum(lo_revenue), d_year, p_brand1 from lineorder, dates, part, supplier
where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey
  and p_brand1 between 'MFGR#2221' and 'MFGR#2228' and s_region = 'ASIA'
group by d_year, p_brand1 order by d_year, p_brand1;

-- name: q2.3
select sum(lo_revenue), d_year, p_brand1 from lineorder, dates, part, supplier
where lo_orderdate = d_datekey and lo_partkey = p_partkey and lo_suppkey = s_suppkey
  and p_brand1 = 'MFGR#2239' and s_region = 'EUROPE'
group by d_year, p_brand1 order by d_year, p_brand1;

-- name: q3.1
select c_nation, s_nation, d_year, sum(lo_revenue) as revenue from customer, lineorder, supplier, dates
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey
  and c_region = 'ASIA' and s_region = 'ASIA' and d_year >= 1992 and d_year <= 1997
group by c_nation, s_nation, d_year order by d_year asc, revenue desc;

-- name: q3.2
select c_city, s_city, d_year, sum(lo_revenue) as revenue from customer, lineorder, supplier, dates
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey
  and c_nation = 'UNITED STATES' and s_nation = 'UNITED STATES' and d_year >= 1992 and d_year <= 1997
group by c_city, s_city, d_year order by d_year asc, revenue desc;

-- name: q3.3
select c_city, s_city, d_year, sum(lo_revenue) as revenue from customer, lineorder, supplier, dates
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey
  and (c_city = 'UNITED KI1' or c_city = 'UNITED KI5') and (s_city = 'UNITED KI1' or s_city = 'UNITED KI5')
  and d_year >= 1992 and d_year <= 1997
group by c_city, s_city, d_year order by d_year asc, revenue desc;

-- name: q3.4
select c_city, s_city, d_year, sum(lo_revenue) as revenue from customer, lineorder, supplier, dates
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_orderdate = d_datekey
  and (c_city = 'UNITED KI1' or c_city = 'UNITED KI5') and (s_city = 'UNITED KI1' or s_city = 'UNITED KI5')
  and d_yearmonth = 'Dec1997'
group by c_city, s_city, d_year order by d_year asc, revenue desc;

-- name: q4.1
select d_year, c_nation, sum(lo_revenue - lo_supplycost) as profit
from dates, customer, supplier, part, lineorder
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey and lo_orderdate = d_datekey
  and c_region = 'AMERICA' and s_region = 'AMERICA' and (p_mfgr = 'MFGR#1' or p_mfgr = 'MFGR#2')
group by d_year, c_nation order by d_year, c_nation;

-- name: q4.2
select d_year, s_nation, p_category, sum(lo_revenue - lo_supplycost) as profit
from dates, customer, supplier, part, lineorder
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey and lo_orderdate = d_datekey
  and c_region = 'AMERICA' and s_region = 'AMERICA' and (d_year = 1997 or d_year = 1998)
  and (p_mfgr = 'MFGR#1' or p_mfgr = 'MFGR#2')
group by d_year, s_nation, p_category order by d_year, s_nation, p_category;

-- name: q4.3
select d_year, s_city, p_brand1, sum(lo_revenue - lo_supplycost) as profit
from dates, customer, supplier, part, lineorder
where lo_custkey = c_custkey and lo_suppkey = s_suppkey and lo_partkey = p_partkey and lo_orderdate = d_datekey
  and c_region = 'AMERICA' and s_nation = 'UNITED STATES' and (d_year = 1997 or d_year = 1998)
  and p_category = 'MFGR#14'
group by d_year, s_city, p_brand1 order by d_year, s_city, p_brand1;
