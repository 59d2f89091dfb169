-- GROUPING beside a legacy group window: Flink refuses it (Unsupported Function: 'GROUPING'), and so does dynsql.
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT supplier_id, GROUPING(supplier_id) AS g, COUNT(*) AS n FROM bids GROUP BY TUMBLE(bidtime, INTERVAL '10' SECOND), supplier_id;
-- error:
-- GROUPING is not supported with a group window (TUMBLE): use a window table function (at line 3, column 21)
