-- A semi join whose subquery updates forwards its updates (Flink: [I,UB,UA]).
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id, cust FROM orders WHERE cust IN (SELECT cust FROM orders GROUP BY cust HAVING SUM(amount) > 20);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, cust], changelogMode=[I,UB,UA])
-- +- Calc(select=[id, cust], changelogMode=[I,UB,UA])
--    +- Join(joinType=[LeftSemiJoin], where=[=(cust, cust0)], select=[id, cust, amount], changelogMode=[I,UB,UA])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
--       +- Calc(select=[cust], where=[$f1 > 20], changelogMode=[I,UB,UA])
--          +- GroupAggregate(groupBy=[cust], select=[cust, SUM(amount) AS $f1], changelogMode=[I,UB,UA])
--             +- Calc(select=[cust, amount], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
