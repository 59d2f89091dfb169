-- A streaming OVER window needs its ORDER BY on a time attribute.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, SUM(price) OVER (PARTITION BY k) AS s FROM bids;
-- error:
-- The window can only be ordered by a single time column. (at line 3, column 41)
