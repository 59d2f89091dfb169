-- A WHERE of AND-ed conditions over a join: the OR keeps its parentheses in the remaining filter.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
CREATE TABLE users (name STRING, country STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/users.csv', 'format' = 'csv');
SELECT c.url FROM clicks AS c JOIN users AS u ON c.`user` = u.name WHERE u.country = 'DE' AND (c.url = 'a' OR c.url = 'b');
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[url], changelogMode=[I])
-- +- Calc(select=[url], where=[country = 'DE' AND (url = 'a' OR url = 'b')], changelogMode=[I])
--    +- Join(joinType=[InnerJoin], where=[=(user, name)], select=[user, cTime, url, name, country], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, cTime, url], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, users]], fields=[name, country], changelogMode=[I])
