[sql]
select c_phone from customer join orders on o_custkey = c_custkey where c_acctbal > 0
[fragment statistics]
PLAN FRAGMENT 0(F02)
Output Exprs:5: C_PHONE
Input Partition: HASH_PARTITIONED: 22: O_CUSTKEY
RESULT SINK

4:Project
|  output columns:
|  5 <-> [5: C_PHONE, VARCHAR, false]
|  cardinality: 10
|
3:HASH JOIN
|  join op: INNER JOIN (PARTITIONED)
|  equal join conjunct: [22: O_CUSTKEY, INT, false] = [1: C_CUSTKEY, INT, false]
|  build runtime filters:
|  - filter_id = 0, build_expr = (1: C_CUSTKEY), remote = true
|  output columns: 5
|  cardinality: 10
|
|----2:EXCHANGE
|       distribution type: SHUFFLE
|       partition exprs: [1: C_CUSTKEY, INT, false]
|       cardinality: 5
|
1:EXCHANGE
distribution type: SHUFFLE
cardinality: 100

PLAN FRAGMENT 1(F01)

Input Partition: RANDOM
OutPut Partition: HASH_PARTITIONED: 1: C_CUSTKEY
OutPut Exchange Id: 02

0:OlapScanNode
table: customer, rollup: customer
preAggregation: on
Predicates: [6: C_ACCTBAL, DECIMAL64(15, 2), false] > 0
cardinality: 5

PLAN FRAGMENT 2(F00)

Input Partition: RANDOM
OutPut Partition: HASH_PARTITIONED: 22: O_CUSTKEY
OutPut Exchange Id: 01

5:OlapScanNode
table: orders, rollup: orders
preAggregation: on
cardinality: 100
probe runtime filters:
- filter_id = 0, probe_expr = (22: O_CUSTKEY)
[end]
