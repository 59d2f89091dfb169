-- A function whose values do not merge over pieces (COUNT DISTINCT): micro-batches.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv', 'scan.rows-per-batch' = '2');
SET 'dynsql.one-pass.max-input-size' = '100 b';
SET 'dynsql.one-pass.piece-size' = '40 b';
SELECT `user`, COUNT(DISTINCT url) AS urls FROM clicks GROUP BY `user`;
-- physical:
-- micro-batches (an input or an operator that a single batch job would not give streaming's rows)
-- Sink
-- +- GroupAggregate: dynsql's keyed aggregate
--    +- Calc
--       +- TableSourceScan(clicks): read in micro-batches (filesystem: 1 file, 131 B, bounded)
