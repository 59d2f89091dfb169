-- A SESSION window aggregate per PARTITION BY key.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT `user`, window_start, window_end, COUNT(*) AS c FROM TABLE(SESSION(TABLE events PARTITION BY `user`, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY `user`, window_start, window_end;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, window_start, window_end, c], changelogMode=[I])
-- +- Calc(select=[user, window_start, window_end, c], changelogMode=[I])
--    +- WindowAggregate(groupBy=[user], window=[SESSION(win_start=[window_start], win_end=[window_end], gap=[5 s], partition keys=[user])], select=[user, COUNT(*) AS c, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])
--       +- Calc(select=[user, window_start, window_end], changelogMode=[I])
--          +- WindowTableFunction(window=[SESSION(time_col=[ts], gap=[5 s], partition keys=[user])], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
