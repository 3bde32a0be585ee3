CREATE TABLE a (k int, v int, d date, s varchar(10));
cimal(15,2)) WITH (rows = 10, runtime_filter = false, distribZtion_key = 'k');;ö¬º°ECT k FROM a UNION SELECT k FROM b INTERS*CT SELECT k FROM b EXCEPT ALL SELECT 1;
