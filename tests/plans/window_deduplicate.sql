-- Window deduplication: the last row per user and window by the rowtime.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, `user` ORDER BY ts DESC) AS rn FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))) WHERE rn = 1;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, ts, amount, window_start, window_end, window_time, rn], changelogMode=[I])
-- +- Calc(select=[user, ts, amount, window_start, window_end, window_time, CAST(1 AS BIGINT) AS rn], changelogMode=[I])
--    +- WindowDeduplicate(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], keep=[LastRow], partitionKeys=[user], orderKey=[ts], order=[ROWTIME], changelogMode=[I])
--       +- WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[5 s])], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
