-- IN (subquery) under OR: Flink plans a mark join (a LEFT join with the subquery's distinct values); dynsql joins a
-- count of the matching rows (planner/bind/subquery_counts.py), grouped by the correlated value: the same rows.
-- Streaming, an uncorrelated IN there also inner-joins the subquery's count of all its rows, as Flink's plan does:
-- over an empty subquery the query gives no row (a streaming aggregate over no rows emits nothing).
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id FROM orders WHERE cust IN (SELECT name FROM custs) OR id = 2;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id], changelogMode=[I,UB,UA,D])
-- +- Calc(select=[id], where=[(CASE WHEN COALESCE(EXPR$0, 0) > 0 THEN TRUE WHEN COALESCE(EXPR$00, 0) = 0 THEN FALSE WHEN cust IS NULL THEN CAST(NULL AS BOOLEAN) WHEN COALESCE(EXPR$01, 0) > 0 THEN CAST(NULL AS BOOLEAN) ELSE FALSE END OR id = 2)], changelogMode=[I,UB,UA,D])
--    +- Join(joinType=[LeftOuterJoin], where=[TRUE], select=[id, cust, amount, EXPR$0, $c1, EXPR$00, EXPR$01], changelogMode=[I,UB,UA,D])
--       :- Join(joinType=[InnerJoin], where=[TRUE], select=[id, cust, amount, EXPR$0, $c1, EXPR$00], changelogMode=[I,UB,UA,D])
--       :  :- Calc(select=[id, cust, amount, COALESCE(EXPR$0, 0) AS EXPR$0, $c1], changelogMode=[I,UB,UA,D])
--       :  :  +- Join(joinType=[LeftOuterJoin], where=[=(cust, $c1)], select=[id, cust, amount, EXPR$0, $c1], changelogMode=[I,UB,UA,D])
--       :  :     :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
--       :  :     +- Calc(select=[EXPR$0, name AS $c1], changelogMode=[I,UB,UA])
--       :  :        +- GroupAggregate(groupBy=[name], select=[name, COUNT(*) AS EXPR$0], changelogMode=[I,UB,UA])
--       :  :           +- Calc(select=[name], changelogMode=[I])
--       :  :              +- TableSourceScan(table=[[default_catalog, default_database, custs]], fields=[name, region], changelogMode=[I])
--       :  +- GroupAggregate(select=[COUNT(*) AS EXPR$0], changelogMode=[I,UB,UA])
--       :     +- Calc(select=[], changelogMode=[I])
--       :        +- TableSourceScan(table=[[default_catalog, default_database, custs]], fields=[name, region], changelogMode=[I])
--       +- GroupAggregate(select=[COUNT(*) AS EXPR$0], changelogMode=[I,UB,UA])
--          +- Calc(select=[], where=[name IS NULL], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, custs]], fields=[name, region], changelogMode=[I])
