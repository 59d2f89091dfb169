-- ROLLUP beside a legacy group window: Flink fails (Unsupported call: $TUMBLE); refused, naming the window TVF way.
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT TUMBLE_START(bidtime, INTERVAL '10' SECOND) AS ws, supplier_id, COUNT(*) AS n FROM bids GROUP BY TUMBLE(bidtime, INTERVAL '10' SECOND), ROLLUP(supplier_id);
-- error:
-- GROUPING SETS, ROLLUP and CUBE cannot group by a group window (TUMBLE); group the rows of a window table function instead: GROUP BY window_start, window_end, ROLLUP (..) (at line 3, column 105)
