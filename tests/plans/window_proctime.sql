-- A window over a PROCTIME() column: window_time is a proctime attribute.
CREATE TABLE plain (`user` STRING, ts TIMESTAMP(3), amount INT, p AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT window_start, window_end, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE plain, DESCRIPTOR(p), INTERVAL '5' SECOND)) GROUP BY window_start, window_end;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, c], changelogMode=[I])
-- +- Calc(select=[window_start, window_end, c], changelogMode=[I])
--    +- WindowAggregate(window=[TUMBLE(time_col=[p], size=[5 s])], select=[COUNT(*) AS c, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])
--       +- Calc(select=[p], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, plain]], fields=[user, ts, amount, p], changelogMode=[I])
