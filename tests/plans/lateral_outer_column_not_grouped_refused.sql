-- An outer column outside an aggregate call of a LATERAL derived table that aggregates (here in HAVING): Flink 2.3's
-- validator refuses it as not grouped (Calcite's AggChecker), and so does dynsql. Inside a call (SUM(i.c * o.amount))
-- it is planned per outer value (lateral_by_outer_values.py).
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE items (oid INT, cust STRING, c INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/items.json', 'format' = 'json');
SELECT o.id, s.n FROM orders o LEFT JOIN LATERAL (SELECT COUNT(*) AS n FROM items i WHERE i.cust = o.cust HAVING COUNT(*) < o.id) s ON TRUE;
-- error:
-- Expression 'o.id' is not being grouped
