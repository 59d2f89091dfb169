-- A correlated scalar subquery: the subquery grouped by its correlated column, LEFT joined on it.
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id, cust, amount FROM orders o WHERE amount = (SELECT MAX(amount) FROM orders o2 WHERE o2.cust = o.cust);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, cust, amount], changelogMode=[I,UB,UA,D])
-- +- Calc(select=[id, cust, amount], where=[amount = EXPR$0], changelogMode=[I,UB,UA,D])
--    +- Join(joinType=[LeftOuterJoin], where=[=(cust, $c1)], select=[id, cust, amount, EXPR$0, $c1], changelogMode=[I,UB,UA,D])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
--       +- Calc(select=[EXPR$0, cust AS $c1], changelogMode=[I,UB,UA])
--          +- GroupAggregate(groupBy=[cust], select=[cust, MAX(amount) AS EXPR$0], changelogMode=[I,UB,UA])
--             +- Calc(select=[cust, amount], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
