-- A group aggregate over an insert-only table updates its rows: [I,UB,UA].
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, cnt], changelogMode=[I,UB,UA])
-- +- GroupAggregate(groupBy=[user], select=[user, COUNT(url) AS cnt], changelogMode=[I,UB,UA])
--    +- Calc(select=[user, url], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, cTime, url], changelogMode=[I])
