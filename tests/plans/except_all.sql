-- EXCEPT ALL: +1 / -1 per side, summed per row, the rows with a positive sum replicated (Flink's RewriteMinusAllRule).
CREATE TABLE a (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/a.json', 'format' = 'json');
CREATE TABLE b (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/b.json', 'format' = 'json');
SELECT k, s FROM a EXCEPT ALL SELECT k, s FROM b;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, s], changelogMode=[I,UB,UA])
-- +- Correlate(invocation=[REPLICATE_ROWS($n3, k, s)], select=[k, s], joinType=[INNER], changelogMode=[I,UB,UA])
--    +- Calc(select=[$sum2 AS $n3, k, s], where=[$sum2 > 0], changelogMode=[I,UB,UA])
--       +- GroupAggregate(groupBy=[k, s], select=[k, s, SUM($v1) AS $sum2], changelogMode=[I,UB,UA])
--          +- Union(all=[true], union=[k, s, $v1], changelogMode=[I])
--             :- Calc(select=[k, s, CAST(1 AS BIGINT) AS $v1], changelogMode=[I])
--             :  +- TableSourceScan(table=[[default_catalog, default_database, a]], fields=[k, s], changelogMode=[I])
--             +- Calc(select=[k, s, CAST(-1 AS BIGINT) AS $v1], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, b]], fields=[k, s], changelogMode=[I])
