-- With the one pass turned off: micro-batches and Spark's update-mode aggregate (-U/+U as rows flow).
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.one-pass.enabled' = 'false';
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- micro-batches (dynsql.one-pass.enabled = false)
-- Sink
-- +- GroupAggregate: Spark's update-mode aggregate
--    +- Calc
--       +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch)
