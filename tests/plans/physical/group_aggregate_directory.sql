-- A directory of files that the first micro-batch reads all whole (each at most 1 MB): one pass.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/parts', 'format' = 'csv');
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- one pass (262 B in 2 files <= dynsql.one-pass.max-input-size 64.0 MB)
-- one pass: final rows only, no -U/+U (SET 'dynsql.one-pass.enabled' = 'false' to see them)
-- Sink
-- +- GroupAggregate: whole-file read of clicks (2 files, 262 B in all <= dynsql.whole-file.max-size 64.0 MB)
--    +- Calc
--       +- TableSourceScan(clicks): read in pieces (filesystem: 2 files, 262 B, bounded, whole in the first micro-batch)
