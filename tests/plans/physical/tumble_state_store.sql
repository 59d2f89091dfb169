-- dynsql.window-aggregate.per-micro-batch = false: Spark's streaming window aggregate (its state store).
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.one-pass.enabled' = 'false';
SET 'dynsql.window-aggregate.per-micro-batch' = 'false';
SELECT window_start, window_end, `user`, COUNT(*) AS cnt FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, `user`;
-- physical:
-- micro-batches (dynsql.one-pass.enabled = false)
-- Sink
-- +- Calc
--    +- WindowAggregate: Spark's window aggregate (dynsql.window-aggregate.per-micro-batch = false)
--       +- Calc
--          +- WatermarkAssigner(rowtime=[cTime], delay=[1000 ms]): Spark's watermark
--             +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch; projection push-down: the scan of clicks hands Spark user, cTime of its columns)
