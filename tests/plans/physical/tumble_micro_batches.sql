-- With the one pass turned off: micro-batches, and the window aggregate a SELECT shows per micro-batch (no state store).
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.one-pass.enabled' = 'false';
SELECT window_start, window_end, `user`, COUNT(*) AS cnt FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, `user`;
-- physical:
-- micro-batches (dynsql.one-pass.enabled = false)
-- Sink
-- +- Calc
--    +- WindowAggregate: Spark's aggregate per micro-batch, open windows carried (a SELECT's result on micro-batches)
--       +- Calc
--          +- WatermarkAssigner(rowtime=[cTime], delay=[1000 ms]): Spark's watermark
--             +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch; projection push-down: the scan of clicks hands Spark user, cTime of its columns)
