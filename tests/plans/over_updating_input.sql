-- An OVER aggregate consumes insert-only input: a Top-N's updates are refused (Flink 2.3's message).
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, SUM(price) OVER (PARTITION BY k ORDER BY ts ROWS 1 PRECEDING) AS s FROM (SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY price DESC) AS rn FROM bids) WHERE rn <= 2);
-- error:
-- StreamPhysicalOverAggregate doesn't support consuming update and delete changes which is produced by node Rank(rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[k], orderBy=[price DESC], select=[k, id, price, ts, pt, rn]) (at line 3, column 41)
