-- A comma join: the WHERE equality is the join's key; an aggregate over it updates.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
CREATE TABLE users (name STRING, country STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/users.csv', 'format' = 'csv');
SELECT u.country, COUNT(*) AS clicks FROM clicks AS c, users AS u WHERE c.`user` = u.name GROUP BY u.country;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[country, clicks], changelogMode=[I,UB,UA])
-- +- GroupAggregate(groupBy=[country], select=[country, COUNT(*) AS clicks], changelogMode=[I,UB,UA])
--    +- Calc(select=[country], changelogMode=[I])
--       +- Join(joinType=[InnerJoin], where=[=(user, name)], select=[user, cTime, url, name, country], changelogMode=[I])
--          :- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, cTime, url], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, users]], fields=[name, country], changelogMode=[I])
