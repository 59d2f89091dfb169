-- A subquery in a LEFT JOIN's ON naming its left side: computed as a column of the left table's rows (hidden
-- from *), which the join's condition reads, as Calcite's SubQueryRemoveRule computes it on the join input whose
-- fields it reads.
CREATE TABLE a (k INT, v INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/a.json', 'format' = 'json');
CREATE TABLE b (k INT, w INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/b.json', 'format' = 'json');
CREATE TABLE c (k INT, v INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/c.json', 'format' = 'json');
SELECT * FROM a LEFT JOIN b ON a.k = b.k AND b.w > (SELECT MAX(v) FROM c WHERE c.k = a.k);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, v, k0, w], changelogMode=[I,UB,UA,D])
-- +- Calc(select=[k, v, k0, w], changelogMode=[I,UB,UA,D])
--    +- Join(joinType=[LeftOuterJoin], where=[AND(=(k, k0), w > $j1)], select=[k, v, $j1, k0, w], changelogMode=[I,UB,UA,D])
--       :- Calc(select=[k, v, EXPR$0 AS $j1], changelogMode=[I,UB,UA,D])
--       :  +- Join(joinType=[LeftOuterJoin], where=[=(k, $c2)], select=[k, v, EXPR$0, $c2], changelogMode=[I,UB,UA,D])
--       :     :- TableSourceScan(table=[[default_catalog, default_database, a]], fields=[k, v], changelogMode=[I])
--       :     +- Calc(select=[EXPR$0, k AS $c2], changelogMode=[I,UB,UA])
--       :        +- GroupAggregate(groupBy=[k], select=[k, MAX(v) AS EXPR$0], changelogMode=[I,UB,UA])
--       :           +- TableSourceScan(table=[[default_catalog, default_database, c]], fields=[k, v], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, b]], fields=[k, w], changelogMode=[I])
