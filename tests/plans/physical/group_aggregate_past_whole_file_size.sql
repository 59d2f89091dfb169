-- Past dynsql.whole-file.max-size: Spark's aggregate in the one pass.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SET 'dynsql.whole-file.max-size' = '10 b';
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- one pass (131 B in 1 file <= dynsql.one-pass.max-input-size 64.0 MB)
-- one pass: final rows only, no -U/+U (SET 'dynsql.one-pass.enabled' = 'false' to see them)
-- Sink
-- +- GroupAggregate: Spark's aggregate (file 131 B > dynsql.whole-file.max-size 10 B)
--    +- Calc
--       +- TableSourceScan(clicks): read in pieces (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch)
