-- A RANGE bound on a timestamp order must be an INTERVAL.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, SUM(price) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM bids;
-- error:
-- Data Type mismatch between ORDER BY and RANGE clause (at line 3, column 41)
