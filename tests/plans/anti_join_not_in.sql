-- NOT IN (subquery): a null-aware anti join (a NULL on either side matches); it retracts, as in Flink ([I,UA,D] there).
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id, cust FROM orders WHERE cust NOT IN (SELECT name FROM custs);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, cust], changelogMode=[I,UB,UA,D])
-- +- Calc(select=[id, cust], changelogMode=[I,UB,UA,D])
--    +- Join(joinType=[LeftAntiJoin], where=[(cust = name OR cust IS NULL OR name IS NULL)], select=[id, cust, amount], changelogMode=[I,UB,UA,D])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
--       +- Calc(select=[name], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, custs]], fields=[name, region], changelogMode=[I])
