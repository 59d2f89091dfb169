-- Past dynsql.one-pass.max-input-size with the one pass turned off: micro-batches, not pieces.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.one-pass.max-input-size' = '100 b';
SET 'dynsql.one-pass.piece-size' = '40 b';
SET 'dynsql.one-pass.enabled' = 'false';
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- micro-batches (dynsql.one-pass.enabled = false)
-- Sink
-- +- GroupAggregate: Spark's update-mode aggregate
--    +- Calc
--       +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch)
