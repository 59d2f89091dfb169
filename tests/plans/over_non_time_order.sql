-- Flink 2.3 refuses a bounded OVER window ordered by a column that is not a time attribute.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, SUM(price) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM bids;
-- error:
-- Non-time attribute sort is not supported for bounded OVER window. (at line 3, column 41)
