-- A scalar subquery that does not aggregate: its row count checked at run time by SINGLE_VALUE, as in Flink.
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id, (SELECT amount FROM orders WHERE cust = 'Alice') FROM orders;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, EXPR$1], changelogMode=[I,UB,UA,D])
-- +- Calc(select=[id, $f1 AS EXPR$1], changelogMode=[I,UB,UA,D])
--    +- Join(joinType=[LeftOuterJoin], where=[TRUE], select=[id, cust, amount, $f1], changelogMode=[I,UB,UA,D])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
--       +- GroupAggregate(select=[SINGLE_VALUE(amount) AS $f1], changelogMode=[I,UB,UA])
--          +- Calc(select=[amount], where=[cust = 'Alice'], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
