-- A directory whose files micro-batches read in runs ('scan.rows-per-batch'): micro-batches.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/parts', 'format' = 'csv', 'scan.rows-per-batch' = '1');
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- micro-batches (an input or an operator that a single batch job would not give streaming's rows)
-- Sink
-- +- GroupAggregate: Spark's update-mode aggregate
--    +- Calc
--       +- TableSourceScan(clicks): read in micro-batches (filesystem: 2 files, 262 B, bounded)
