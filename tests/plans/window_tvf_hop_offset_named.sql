-- HOP with named arguments and an offset, as Flink prints it.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM TABLE(HOP(DATA => TABLE events, TIMECOL => DESCRIPTOR(ts), SLIDE => INTERVAL '5' SECOND, SIZE => INTERVAL '10' SECOND, `OFFSET` => INTERVAL '1' SECOND));
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, ts, amount, window_start, window_end, window_time], changelogMode=[I])
-- +- WindowTableFunction(window=[HOP(time_col=[ts], size=[10 s], slide=[5 s], offset=[1 s])], changelogMode=[I])
--    +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
