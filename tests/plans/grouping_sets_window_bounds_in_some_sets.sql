-- Window bounds in only some grouping sets: NULL in the others, so no window aggregate: a plain updating GroupAggregate, as in Flink.
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT window_start, window_end, item, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(bidtime), INTERVAL '10' SECOND)) GROUP BY GROUPING SETS ((window_start, window_end, item), (item));
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, item, n], changelogMode=[I,UB,UA])
-- +- Calc(select=[window_start, window_end, item, n], changelogMode=[I,UB,UA])
--    +- GroupAggregate(groupBy=[window_start, window_end, item, $e1], select=[window_start, window_end, item, $e1, COUNT(*) AS n], changelogMode=[I,UB,UA])
--       +- Expand(projects=[{window_start, window_end, item, 0 AS $e1}, {null AS window_start, null AS window_end, item, 6 AS $e1}], changelogMode=[I])
--          +- Calc(select=[window_start, window_end, item], changelogMode=[I])
--             +- WindowTableFunction(window=[TUMBLE(time_col=[bidtime], size=[10 s])], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[bidtime, supplier_id, item, price], changelogMode=[I])
