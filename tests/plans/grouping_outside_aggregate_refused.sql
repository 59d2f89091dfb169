-- GROUPING in a query that does not aggregate: Flink's (Calcite's) refusal.
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT GROUPING(item) FROM bids;
-- error:
-- GROUPING operator may only occur in an aggregate query (at line 3, column 8)
