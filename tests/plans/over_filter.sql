-- Calcite refuses FILTER on an OVER call (both modes).
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, SUM(price) FILTER (WHERE price > 1) OVER (PARTITION BY k ORDER BY ts) AS s FROM bids;
-- error:
-- OVER must be applied to aggregate function (at line 3, column 66)
