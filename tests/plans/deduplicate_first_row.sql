-- Keeping the first row per key on a rowtime is insert-only (Flink 2.3).
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
SELECT `user`, cTime, url FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY cTime ASC) AS rn FROM clicks) WHERE rn = 1;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, cTime, url], changelogMode=[I])
-- +- Deduplicate(keep=[FirstRow], key=[user], order=[ROWTIME], changelogMode=[I])
--    +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, cTime, url], changelogMode=[I])
