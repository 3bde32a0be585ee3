-- TPC-H as Trino's TPC-H connector names and types it (its columns carry no
-- table prefix: orderkey, not l_orderkey), which the plans of Trino's
-- cost-based plan tests read (their Iceberg tables are copies of it). Keys as
-- the TPC-H specification (3.0.1) declares them.
CREATE TABLE nation (nationkey bigint NOT NULL PRIMARY KEY, name varchar(25) NOT NULL, regionkey bigint NOT NULL, comment varchar(152) NOT NULL);
CREATE TABLE region (regionkey bigint NOT NULL PRIMARY KEY, name varchar(25) NOT NULL, comment varchar(152) NOT NULL);
CREATE TABLE part (partkey bigint NOT NULL PRIMARY KEY, name varchar(55) NOT NULL, mfgr varchar(25) NOT NULL, brand varchar(10) NOT NULL, type varchar(25) NOT NULL, size int NOT NULL, container varchar(10) NOT NULL, retailprice double NOT NULL, comment varchar(23) NOT NULL);
CREATE TABLE supplier (suppkey bigint NOT NULL PRIMARY KEY, name varchar(25) NOT NULL, address varchar(40) NOT NULL, nationkey bigint NOT NULL, phone varchar(15) NOT NULL, acctbal double NOT NULL, comment varchar(101) NOT NULL);
CREATE TABLE partsupp (partkey bigint NOT NULL, suppkey bigint NOT NULL, availqty int NOT NULL, supplycost double NOT NULL, comment varchar(199) NOT NULL, PRIMARY KEY (partkey, suppkey));
CREATE TABLE customer (custkey bigint NOT NULL PRIMARY KEY, name varchar(25) NOT NULL, address varchar(40) NOT NULL, nationkey bigint NOT NULL, phone varchar(15) NOT NULL, acctbal double NOT NULL, mktsegment varchar(10) NOT NULL, comment varchar(117) NOT NULL);
CREATE TABLE orders (orderkey bigint NOT NULL PRIMARY KEY, custkey bigint NOT NULL, orderstatus varchar(1) NOT NULL, totalprice double NOT NULL, orderdate date NOT NULL, orderpriority varchar(15) NOT NULL, clerk varchar(15) NOT NULL, shippriority int NOT NULL, comment varchar(79) NOT NULL);
CREATE TABLE lineitem (orderkey bigint NOT NULL, partkey bigint NOT NULL, suppkey bigint NOT NULL, linenumber int NOT NULL, quantity double NOT NULL, extendedprice double NOT NULL, discount double NOT NULL, tax double NOT NULL, returnflag varchar(1) NOT NULL, linestatus varchar(1) NOT NULL, shipdate date NOT NULL, commitdate date NOT NULL, receiptdate date NOT NULL, shipinstruct varchar(25) NOT NULL, shipmode varchar(10) NOT NULL, comment varchar(44) NOT NULL, PRIMARY KEY (orderkey, linenumber));
