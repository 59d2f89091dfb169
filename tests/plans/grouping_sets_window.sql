-- GROUPING SETS over a window TVF, window_start and window_end plain keys beside them: a WindowAggregate (insert-only) over the Expand, the window's rows read from window_start / window_end.
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT window_start, window_end, supplier_id, COUNT(*) AS n, GROUPING(supplier_id) AS g FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(bidtime), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, GROUPING SETS ((supplier_id), ());
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, supplier_id, n, g], changelogMode=[I])
-- +- Calc(select=[window_start, window_end, supplier_id, n, GROUPING(supplier_id) AS g], changelogMode=[I])
--    +- WindowAggregate(groupBy=[supplier_id, $e1], window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[10 s])], select=[supplier_id, $e1, COUNT(*) AS n, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])
--       +- Expand(projects=[{window_start, window_end, supplier_id, 0 AS $e1}, {window_start, window_end, null AS supplier_id, 1 AS $e1}], changelogMode=[I])
--          +- Calc(select=[window_start, window_end, supplier_id], changelogMode=[I])
--             +- WindowTableFunction(window=[TUMBLE(time_col=[bidtime], size=[10 s])], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[bidtime, supplier_id, item, price], changelogMode=[I])
