-- CUBE over a changelog source: the Expand passes every change kind on ([I,UB,UA,D]), the aggregate retracts.
CREATE TABLE products (id INT, name STRING, price INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
SELECT name, price, COUNT(*) AS n, GROUPING_ID(name, price) AS g FROM products GROUP BY CUBE(name, price);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[name, price, n, g], changelogMode=[I,UB,UA,D])
-- +- Calc(select=[name, price, n, GROUPING_ID(name, price) AS g], changelogMode=[I,UB,UA,D])
--    +- GroupAggregate(groupBy=[name, price, $e1], select=[name, price, $e1, COUNT(*) AS n], changelogMode=[I,UB,UA,D])
--       +- Expand(projects=[{name, price, 0 AS $e1}, {name, null AS price, 1 AS $e1}, {null AS name, price, 2 AS $e1}, {null AS name, null AS price, 3 AS $e1}], changelogMode=[I,UB,UA,D])
--          +- Calc(select=[name, price], changelogMode=[I,UB,UA,D])
--             +- TableSourceScan(table=[[default_catalog, default_database, products]], fields=[id, name, price], changelogMode=[I,UB,UA,D])
