-- A window aggregate over a directory that the first micro-batch reads all whole: one pass, each file read top to
-- bottom against its own running maximum, as that micro-batch reads them; COUNT(*) is Arrow's as Spark's, so
-- each file is aggregated in a task and the files' groups merged in the driver.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/parts', 'format' = 'csv');
SELECT window_start, `user`, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, `user`;
-- physical:
-- one pass (262 B in 2 files <= dynsql.one-pass.max-input-size 64.0 MB)
-- one pass: rows shown at the end of the input (SET 'dynsql.one-pass.enabled' = 'false')
-- Sink
-- +- Calc
--    +- WindowAggregate: each file aggregated with Arrow in a task, the files' groups merged in the driver (2 files, each read against its own running maximum)
--       +- Calc
--          +- TableSourceScan(clicks): read top to bottom (filesystem: 2 files, 262 B, bounded, whole in the first micro-batch; projection push-down: the scan of clicks hands Spark user, cTime of its columns)
