-- LEAD needs rows that have not arrived: Flink refuses it in streaming.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, LEAD(price) OVER (PARTITION BY k ORDER BY ts) AS l FROM bids;
-- error:
-- LEAD Function is not supported in stream mode. (at line 3, column 42)
