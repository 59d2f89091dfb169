-- An AVG and a HAVING: one pass in pieces, Spark's aggregate of the scan's rows for each (piece, key).
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv', 'scan.rows-per-batch' = '2');
SET 'dynsql.one-pass.max-input-size' = '100 b';
SET 'dynsql.one-pass.piece-size' = '40 b';
SELECT `user`, AVG(CHAR_LENGTH(url)) AS len FROM clicks GROUP BY `user` HAVING COUNT(*) > 1;
-- physical:
-- one pass (131 B in 1 file > dynsql.one-pass.max-input-size 100 B: 4 pieces of 32 B read in parallel, each a step of the changelog (dynsql.one-pass.piece-size 40 B))
-- one pass in 4 pieces: the changes piece by piece, as micro-batches of them would show them (SET 'dynsql.one-pass.enabled' = 'false' for micro-batches)
-- Sink
-- +- Calc
--    +- GroupAggregate: the aggregate of each (piece, key), then each key's running values piece by piece (functions that merge: AVG, COUNT; partial values: Spark's aggregate of the scan's rows (functions or fields Arrow does not compute as Spark))
--       +- Calc
--          +- TableSourceScan(clicks): read in pieces, each piece a step of the changelog (filesystem: 1 file, 131 B, bounded)
