-- Top-N: ROW_NUMBER() filtered by rn <= 2 is a Rank with rankEnd=2.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
SELECT `user`, url, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user` ORDER BY url DESC) AS rn FROM clicks) WHERE rn <= 2;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, url, rn], changelogMode=[I,UB,UA,D])
-- +- Calc(select=[user, url, rn], changelogMode=[I,UB,UA,D])
--    +- Rank(rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[user], orderBy=[url DESC], select=[user, cTime, url, rn], changelogMode=[I,UB,UA,D])
--       +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, cTime, url], changelogMode=[I])
