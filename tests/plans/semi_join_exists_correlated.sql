-- A correlated EXISTS: the subquery's correlated conjunct is the semi join's key, its other conjunct stays in it.
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id FROM orders o WHERE EXISTS (SELECT 1 FROM custs c WHERE c.name = o.cust AND c.region = 'EU');
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id], changelogMode=[I])
-- +- Calc(select=[id], changelogMode=[I])
--    +- Join(joinType=[LeftSemiJoin], where=[=(cust, $c1)], select=[id, cust, amount], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
--       +- Calc(select=[1 AS EXPR$0, name AS $c1], where=[region = 'EU'], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, custs]], fields=[name, region], changelogMode=[I])
