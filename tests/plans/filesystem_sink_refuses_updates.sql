-- A filesystem sink takes inserts only (Flink's message).
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
CREATE TABLE counts (`user` STRING, cnt BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/out', 'format' = 'csv');
INSERT INTO counts SELECT `user`, COUNT(*) FROM clicks GROUP BY `user`;
-- error:
-- Table sink 'default_catalog.default_database.counts' doesn't support consuming update changes which is produced by node GroupAggregate(groupBy=[user], select=[user, COUNT(*) AS EXPR$1]) (at line 4, column 20)
