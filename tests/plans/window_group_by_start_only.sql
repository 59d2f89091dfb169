-- GROUP BY window_start alone is not a window aggregate: a GroupAggregate that updates, as Flink plans it.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT window_start, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, c], changelogMode=[I,UB,UA])
-- +- GroupAggregate(groupBy=[window_start], select=[window_start, COUNT(*) AS c], changelogMode=[I,UB,UA])
--    +- Calc(select=[window_start], changelogMode=[I])
--       +- WindowTableFunction(window=[TUMBLE(time_col=[ts], size=[5 s])], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
