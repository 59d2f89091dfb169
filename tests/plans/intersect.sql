-- INTERSECT: a semi join on every column (NULLs equal) under a distinct aggregate, as Flink rewrites it.
CREATE TABLE a (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/a.json', 'format' = 'json');
CREATE TABLE b (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/b.json', 'format' = 'json');
SELECT k, s FROM a INTERSECT SELECT k, s FROM b;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, s], changelogMode=[I,UB,UA])
-- +- GroupAggregate(groupBy=[k, s], select=[k, s], changelogMode=[I,UB,UA])
--    +- Join(joinType=[LeftSemiJoin], where=[AND(IS NOT DISTINCT FROM(k, k0), IS NOT DISTINCT FROM(s, s0))], select=[k, s], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, a]], fields=[k, s], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, b]], fields=[k, s], changelogMode=[I])
