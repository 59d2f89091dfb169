-- Both sides' columns keep their own values: a repeated name becomes name0.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
CREATE TABLE users (name STRING, country STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/users.csv', 'format' = 'csv');
CREATE TABLE visits (`user` STRING, url STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/v.csv', 'format' = 'csv');
SELECT v.url, c.url FROM clicks AS c JOIN visits AS v ON c.`user` = v.`user`;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[url, url0], changelogMode=[I])
-- +- Calc(select=[url0 AS url, url AS url0], changelogMode=[I])
--    +- Join(joinType=[InnerJoin], where=[=(user, user0)], select=[user, cTime, url, user0, url0], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, cTime, url], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, visits]], fields=[user, url], changelogMode=[I])
