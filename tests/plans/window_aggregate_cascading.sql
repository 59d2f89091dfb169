-- Cascading windows: a window function over a window aggregate's window_time, aggregated again.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
CREATE VIEW agg1 AS SELECT window_time, `user`, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, window_time, `user`;
SELECT window_start, window_end, SUM(c) AS total FROM TABLE(TUMBLE(TABLE agg1, DESCRIPTOR(window_time), INTERVAL '10' SECOND)) GROUP BY window_start, window_end;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, total], changelogMode=[I])
-- +- Calc(select=[window_start, window_end, total], changelogMode=[I])
--    +- WindowAggregate(window=[TUMBLE(time_col=[window_time], size=[10 s])], select=[SUM(c) AS total, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])
--       +- Calc(select=[c, window_time], changelogMode=[I])
--          +- WindowAggregate(groupBy=[user], window=[TUMBLE(time_col=[ts], size=[5 s])], select=[user, COUNT(*) AS c, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time], changelogMode=[I])
--             +- Calc(select=[user, ts], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
