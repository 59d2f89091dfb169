-- A streaming OVER window is ordered ascending.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, SUM(price) OVER (PARTITION BY k ORDER BY ts DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM bids;
-- error:
-- The window can only be ordered in ASCENDING mode. (at line 3, column 41)
