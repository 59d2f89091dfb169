-- A LEFT JOIN LATERAL whose derived table is one column over its aggregates that is never NULL: Flink 2.3 fails to
-- plan it (its count-bug rewrite makes the column NOT NULL: "Cannot add expression of different type to set");
-- dynsql refuses it in words.
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE items (oid INT, cust STRING, c INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/items.json', 'format' = 'json');
SELECT o.id, n.v FROM orders o LEFT JOIN LATERAL (SELECT COALESCE(MAX(c), -1) AS v FROM items i WHERE i.oid = o.id) n ON TRUE;
-- error:
-- LEFT JOIN LATERAL with a derived table whose one column is an expression over its aggregates that is never NULL
-- is not supported (Flink 2.3 fails to plan it)
