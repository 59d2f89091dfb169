-- A filter between the scan and the window aggregate would drop rows whose rowtimes the watermark still counts:
-- past the one pass's limit, micro-batches.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.one-pass.max-input-size' = '100 b';
SET 'dynsql.one-pass.piece-size' = '64 b';
SELECT window_start, `user`, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '1' MINUTE)) WHERE url <> '/home' GROUP BY window_start, window_end, `user`;
-- physical:
-- micro-batches (131 B in all > dynsql.one-pass.max-input-size 100 B)
-- Sink
-- +- Calc
--    +- WindowAggregate: Spark's aggregate per micro-batch, open windows carried (a SELECT's result on micro-batches)
--       +- Calc
--          +- WatermarkAssigner(rowtime=[cTime], delay=[1000 ms]): Spark's watermark
--             +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch)
