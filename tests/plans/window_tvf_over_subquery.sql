-- A window function over a subquery that filters: the subquery's rowtime is still a time attribute.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM TABLE(TUMBLE((SELECT * FROM events WHERE amount > 1), DESCRIPTOR(ts), INTERVAL '5' SECOND));
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, ts, amount, window_start, window_end, window_time], changelogMode=[I])
-- +- WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[5 s])], changelogMode=[I])
--    +- Calc(select=[user, ts, amount], where=[amount > 1], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
