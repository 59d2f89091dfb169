-- An aggregate over an updating aggregate also deletes: [I,UB,UA,D].
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
SELECT cnt, COUNT(*) AS users FROM (SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`) GROUP BY cnt;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[cnt, users], changelogMode=[I,UB,UA,D])
-- +- GroupAggregate(groupBy=[cnt], select=[cnt, COUNT(*) AS users], changelogMode=[I,UB,UA,D])
--    +- Calc(select=[cnt], changelogMode=[I,UB,UA])
--       +- GroupAggregate(groupBy=[user], select=[user, COUNT(url) AS cnt], changelogMode=[I,UB,UA])
--          +- Calc(select=[user, url], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[user, cTime, url], changelogMode=[I])
