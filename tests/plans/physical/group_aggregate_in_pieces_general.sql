-- dynsql.physical.force = general: micro-batches, not pieces.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv', 'scan.rows-per-batch' = '2');
SET 'dynsql.one-pass.max-input-size' = '100 b';
SET 'dynsql.one-pass.piece-size' = '40 b';
SET 'dynsql.physical.force' = 'general';
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- micro-batches (dynsql.physical.force = general)
-- Sink
-- +- GroupAggregate: dynsql's keyed aggregate (dynsql.physical.force = general)
--    +- Calc
--       +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded)
