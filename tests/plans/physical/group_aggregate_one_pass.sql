-- A streaming group aggregate over one small file: one pass, each task reading the file; the changelog's
-- -U/+U are not shown (said on the second line).
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '${DATA}/clicks.csv', 'format' = 'csv');
SELECT `user`, COUNT(url) AS cnt FROM clicks GROUP BY `user`;
-- physical:
-- one pass (131 B in 1 file <= dynsql.one-pass.max-input-size 64.0 MB)
-- one pass: final rows only, no -U/+U (SET 'dynsql.one-pass.enabled' = 'false' to see them)
-- Sink
-- +- GroupAggregate: whole-file read of clicks (file 131 B <= dynsql.whole-file.max-size 64.0 MB)
--    +- Calc
--       +- TableSourceScan(clicks): read in pieces (filesystem: 1 file, 131 B, bounded, whole in the first micro-batch)
