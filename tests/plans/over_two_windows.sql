-- In streaming Flink computes every OVER call of a SELECT on one window.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, SUM(price) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s1, SUM(price) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s2 FROM bids;
-- error:
-- Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window. please re-check the over window statement. (at line 3, column 134)
