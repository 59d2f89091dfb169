-- COUNT(DISTINCT) and FILTER (WHERE ..) in a window aggregate grouped by window_time too: window_time stays a rowtime.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT window_start, window_end, window_time, COUNT(DISTINCT `user`) AS c, SUM(amount) FILTER (WHERE amount > 2) AS s FROM TABLE(CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end, window_time;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, window_time, c, s], changelogMode=[I])
-- +- Calc(select=[window_start, window_end, window_time, c, s], changelogMode=[I])
--    +- WindowAggregate(window=[CUMULATE(time_col=[ts], max_size=[10 s], step=[5 s])], select=[COUNT(DISTINCT user) AS c, SUM(amount) FILTER (WHERE $f1) AS s, start('w$) AS window_start, end('w$) AS window_end, rowtime('w$) AS window_time], changelogMode=[I])
--       +- Calc(select=[user, amount > 2 AS $f1, amount, ts], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
