SELECT 'í €' AS s;
