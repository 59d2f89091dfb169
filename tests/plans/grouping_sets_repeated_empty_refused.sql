-- A repeated empty grouping set beside sets with keys: Flink cannot plan it (GROUPING SETS are currently not supported).
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT supplier_id, item, COUNT(*) FROM bids GROUP BY GROUPING SETS (supplier_id, ROLLUP(item), ());
-- error:
-- GROUPING SETS are currently not supported: a grouping set () repeated more often than any other, without all of the grouping keys (at line 3, column 70)
