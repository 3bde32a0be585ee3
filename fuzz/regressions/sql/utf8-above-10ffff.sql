SELECT 'ô€€' AS s;
