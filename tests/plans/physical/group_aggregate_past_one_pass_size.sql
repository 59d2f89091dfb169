-- Past dynsql.one-pass.max-input-size: one pass, the file in pieces (two at least), each a step of the changelog.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.one-pass.max-input-size' = '100 b';
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- one pass (131 B in 1 file > dynsql.one-pass.max-input-size 100 B: 2 pieces of 65 B read in parallel, each a step of the changelog (dynsql.one-pass.piece-size 64.0 MB))
-- one pass in 2 pieces: the changes piece by piece, as micro-batches of them would show them (SET 'dynsql.one-pass.enabled' = 'false' for micro-batches)
-- Sink
-- +- GroupAggregate: the aggregate of each (piece, key), then each key's running values piece by piece (functions that merge: COUNT; partial values: each task aggregating its piece of clicks with Arrow)
--    +- Calc
--       +- TableSourceScan(clicks): read in pieces, each piece a step of the changelog (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch)
