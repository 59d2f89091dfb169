-- Batch mode: the whole-file read, no one pass.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'execution.runtime-mode' = 'batch';
SELECT window_start, `user`, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, `user`;
-- physical:
-- batch (execution.runtime-mode = batch)
-- Sink
-- +- Calc
--    +- WindowAggregate: whole-file read of clicks (file 131 B <= dynsql.whole-file.max-size 64.0 MB)
--       +- Calc
--          +- TableSourceScan(clicks): read in pieces (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch; projection push-down: the scan of clicks hands Spark user, cTime of its columns)
