-- GROUPING inside an aggregate call: Flink's (Calcite's) refusal, at the GROUPING call.
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT supplier_id, SUM(GROUPING(supplier_id)) FROM bids GROUP BY ROLLUP(supplier_id);
-- error:
-- GROUPING operator may only occur in SELECT, HAVING or ORDER BY clause (at line 3, column 25)
