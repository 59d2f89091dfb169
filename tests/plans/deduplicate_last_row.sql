-- Keeping the last row per key updates.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
SELECT `user`, cTime, url FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY cTime DESC) AS rn FROM clicks) WHERE rn = 1;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, cTime, url], changelogMode=[I,UB,UA,D])
-- +- Deduplicate(keep=[LastRow], key=[user], order=[ROWTIME], changelogMode=[I,UB,UA,D])
--    +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, cTime, url], changelogMode=[I])
