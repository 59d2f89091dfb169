-- Window Top-N straight over the windows: ROW_NUMBER() partitioned by window_start, window_end, filtered by rn <= 2.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS rn FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))) WHERE rn <= 2;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, ts, amount, window_start, window_end, window_time, rn], changelogMode=[I])
-- +- WindowRank(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[], orderBy=[amount DESC], select=[user, ts, amount, window_start, window_end, window_time, rn], changelogMode=[I])
--    +- WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[5 s])], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
