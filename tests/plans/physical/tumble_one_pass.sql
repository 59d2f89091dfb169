-- A window aggregate in one pass reads its file top to bottom (the per-row watermark decides lateness); only
-- field-picking Calcs above it, so its tasks hand their groups to the driver as Arrow values.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SELECT window_start, `user`, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, `user`;
-- physical:
-- one pass (131 B in 1 file <= dynsql.one-pass.max-input-size 64.0 MB)
-- one pass: rows shown at the end of the input (SET 'dynsql.one-pass.enabled' = 'false')
-- Sink
-- +- Calc
--    +- WindowAggregate: whole-file read of clicks (file 131 B <= dynsql.whole-file.max-size 64.0 MB; the groups handed to the driver as Arrow values)
--       +- Calc
--          +- TableSourceScan(clicks): read top to bottom (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch; projection push-down: the scan of clicks hands Spark user, cTime of its columns)
