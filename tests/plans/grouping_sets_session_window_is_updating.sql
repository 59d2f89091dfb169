-- GROUPING SETS over SESSION windows' rows: Flink aggregates them as an ordinary, updating GroupAggregate (no window aggregate over the Expand).
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT window_start, window_end, supplier_id, COUNT(*) AS n FROM TABLE(SESSION(TABLE bids, DESCRIPTOR(bidtime), INTERVAL '3' SECOND)) GROUP BY window_start, window_end, ROLLUP(supplier_id);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, supplier_id, n], changelogMode=[I,UB,UA])
-- +- Calc(select=[window_start, window_end, supplier_id, n], changelogMode=[I,UB,UA])
--    +- GroupAggregate(groupBy=[window_start, window_end, supplier_id, $e1], select=[window_start, window_end, supplier_id, $e1, COUNT(*) AS n], changelogMode=[I,UB,UA])
--       +- Expand(projects=[{window_start, window_end, supplier_id, 0 AS $e1}, {window_start, window_end, null AS supplier_id, 1 AS $e1}], changelogMode=[I])
--          +- Calc(select=[window_start, window_end, supplier_id], changelogMode=[I])
--             +- WindowTableFunction(window=[SESSION(time_col=[bidtime], gap=[3 s])], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[bidtime, supplier_id, item, price], changelogMode=[I])
