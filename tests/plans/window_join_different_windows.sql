-- Sides with different windows: a regular join (time attributes materialized), as Flink plans it.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
CREATE TABLE payments (payer STRING, pts TIMESTAMP(3), pref STRING, WATERMARK FOR pts AS pts) WITH ('connector' = 'filesystem', 'path' = '/tmp/payments.csv', 'format' = 'csv');
SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))) L JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(pts), INTERVAL '10' SECOND))) R ON L.window_start = R.window_start AND L.window_end = R.window_end;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, ts, amount, window_start, window_end, window_time, payer, pts, pref, window_start0, window_end0, window_time0], changelogMode=[I])
-- +- Join(joinType=[InnerJoin], where=[AND(=(window_start, window_start0), =(window_end, window_end0))], select=[user, ts, amount, window_start, window_end, window_time, payer, pts, pref, window_start0, window_end0, window_time0], changelogMode=[I])
--    :- WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[5 s])], changelogMode=[I])
--    :  +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
--    +- WindowTableFunction(window=[TUMBLE(time_col=[pts], size=[10 s])], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, payments]], fields=[payer, pts, pref], changelogMode=[I])
