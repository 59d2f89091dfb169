-- Forced onto the general path: micro-batches, and Spark's streaming window aggregate (no per-micro-batch run).
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.physical.force' = 'general';
SELECT window_start, window_end, `user`, COUNT(*) AS cnt FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, `user`;
-- physical:
-- micro-batches (dynsql.physical.force = general)
-- Sink
-- +- Calc
--    +- WindowAggregate: Spark's window aggregate (dynsql.physical.force = general)
--       +- Calc
--          +- WatermarkAssigner(rowtime=[cTime], delay=[1000 ms]): Spark's watermark
--             +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch; projection push-down: the scan of clicks hands Spark user, cTime of its columns)
