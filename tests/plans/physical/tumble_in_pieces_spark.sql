-- A window aggregate over one file larger than the one pass's limit: one pass, the file read in pieces in parallel,
-- each row's lateness by its piece's running maximum and the earlier pieces' maximum; COUNT(DISTINCT url), which
-- Arrow does not compute in a piece's task, on Spark's aggregate of the pieces.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.one-pass.max-input-size' = '100 b';
SET 'dynsql.one-pass.piece-size' = '64 b';
SELECT window_start, `user`, COUNT(DISTINCT url) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(cTime), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end, `user`;
-- physical:
-- one pass (131 B in 1 file > dynsql.one-pass.max-input-size 100 B: 4 pieces of 32 B read in parallel (dynsql.one-pass.piece-size 64 B))
-- one pass: rows shown at the end of the input (SET 'dynsql.one-pass.enabled' = 'false')
-- Sink
-- +- Calc
--    +- WindowAggregate: Spark's aggregate of the pieces, each pair's lateness by the earlier pieces too (late when window end - 1 <= max(the piece's watermark before the row, the earlier pieces' maximum - delay))
--       +- Calc
--          +- TableSourceScan(clicks): read in pieces, each piece's maximum rowtime reported (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch)
