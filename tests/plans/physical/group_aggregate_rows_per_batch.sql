-- Within dynsql.one-pass.max-input-size, a table's own 'scan.rows-per-batch' keeps its micro-batches.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv', 'scan.rows-per-batch' = '2');
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- micro-batches (an input or an operator that a single batch job would not give streaming's rows)
-- Sink
-- +- GroupAggregate: Spark's update-mode aggregate
--    +- Calc
--       +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded)
