-- GROUP BY window_start, window_end over a window aggregate's result: a window aggregate over rows that carry their windows (Flink: win_start / win_end).
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT window_start, window_end, SUM(c) AS total FROM (SELECT window_start, window_end, `user`, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, `user`) GROUP BY window_start, window_end;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, total], changelogMode=[I])
-- +- Calc(select=[window_start, window_end, total], changelogMode=[I])
--    +- WindowAggregate(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], select=[SUM(c) AS total, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])
--       +- Calc(select=[window_start, window_end, c], changelogMode=[I])
--          +- WindowAggregate(groupBy=[user], window=[TUMBLE(time_col=[ts], size=[5 s])], select=[user, COUNT(*) AS c, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])
--             +- Calc(select=[user, ts], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
