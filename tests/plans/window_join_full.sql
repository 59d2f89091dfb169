-- A FULL window join: both sides' window_start and window_end equated; time attributes kept; insert-only.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
CREATE TABLE payments (payer STRING, pts TIMESTAMP(3), pref STRING, WATERMARK FOR pts AS pts) WITH ('connector' = 'filesystem', 'path' = '/tmp/payments.csv', 'format' = 'csv');
SELECT L.`user`, L.amount, R.pref, COALESCE(L.window_start, R.window_start) AS ws FROM (SELECT * FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))) L FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE payments, DESCRIPTOR(pts), INTERVAL '5' SECOND))) R ON L.`user` = R.payer AND L.window_start = R.window_start AND L.window_end = R.window_end;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[user, amount, pref, ws], changelogMode=[I])
-- +- Calc(select=[user, amount, pref, COALESCE(window_start, window_start0) AS ws], changelogMode=[I])
--    +- WindowJoin(leftWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], rightWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], joinType=[FullOuterJoin], where=[=(user, payer)], select=[user, ts, amount, window_start, window_end, window_time, payer, pts, pref, window_start0, window_end0, window_time0], changelogMode=[I])
--       :- WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[5 s])], changelogMode=[I])
--       :  +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
--       +- WindowTableFunction(window=[TUMBLE(time_col=[pts], size=[5 s])], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, payments]], fields=[payer, pts, pref], changelogMode=[I])
