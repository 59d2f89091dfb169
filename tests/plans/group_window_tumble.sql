-- A legacy group window with TUMBLE_START / _END / _ROWTIME: insert-only, the rowtime a time attribute.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT `user`, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s, TUMBLE_END(ts, INTERVAL '5' SECOND) AS e, TUMBLE_ROWTIME(ts, INTERVAL '5' SECOND) AS rt, COUNT(*) AS c FROM events GROUP BY `user`, TUMBLE(ts, INTERVAL '5' SECOND);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, s, e, rt, c], changelogMode=[I])
-- +- Calc(select=[user, w$start AS s, w$end AS e, w$rowtime AS rt, c], changelogMode=[I])
--    +- GroupWindowAggregate(groupBy=[user], window=[TumblingGroupWindow('w$, ts, 5000)], properties=[w$start, w$end, w$rowtime], select=[user, COUNT(*) AS c, start('w$) AS w$start, end('w$) AS w$end, rowtime('w$) AS w$rowtime], changelogMode=[I])
--       +- Calc(select=[user, ts], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
