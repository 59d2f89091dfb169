-- Calcite refuses a frame on ranking functions and LAG / LEAD.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, LAG(price) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS l FROM bids;
-- error:
-- ROW/RANGE not allowed with RANK, DENSE_RANK or ROW_NUMBER functions (at line 3, column 41)
