-- GROUP BY window_start, window_end over a window function: a window aggregate that assigns the windows itself (the function is absorbed, as in Flink); insert-only.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT window_start, window_end, `user`, COUNT(*) AS c, SUM(amount) AS s FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, `user`;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, user, c, s], changelogMode=[I])
-- +- Calc(select=[window_start, window_end, user, c, s], changelogMode=[I])
--    +- WindowAggregate(groupBy=[user], window=[TUMBLE(time_col=[ts], size=[5 s])], select=[user, COUNT(*) AS c, SUM(amount) AS s, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])
--       +- Calc(select=[user, amount, ts], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
