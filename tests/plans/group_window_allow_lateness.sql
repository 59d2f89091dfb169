-- With table.exec.emit.allow-lateness a legacy group window updates its result.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SET 'table.exec.emit.allow-lateness' = '1 h';
SELECT `user`, HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS s, COUNT(*) AS c FROM events GROUP BY `user`, HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, s, c], changelogMode=[I,UB,UA])
-- +- Calc(select=[user, w$start AS s, c], changelogMode=[I,UB,UA])
--    +- GroupWindowAggregate(groupBy=[user], window=[SlidingGroupWindow('w$, ts, 10000, 5000)], properties=[w$start, w$end, w$rowtime], select=[user, COUNT(*) AS c, start('w$) AS w$start, end('w$) AS w$end, rowtime('w$) AS w$rowtime], emit=[allow lateness 3600000 ms], changelogMode=[I,UB,UA])
--       +- Calc(select=[user, ts], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
