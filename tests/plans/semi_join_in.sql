-- IN (subquery): a semi join on the IN's equality; insert-only over insert-only inputs, as in Flink.
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id, cust FROM orders WHERE cust IN (SELECT name FROM custs);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, cust], changelogMode=[I])
-- +- Calc(select=[id, cust], changelogMode=[I])
--    +- Join(joinType=[LeftSemiJoin], where=[=(cust, name)], select=[id, cust, amount], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
--       +- Calc(select=[name], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, custs]], fields=[name, region], changelogMode=[I])
