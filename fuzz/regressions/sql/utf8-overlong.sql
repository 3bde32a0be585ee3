SELECT 'À¯' AS s;
