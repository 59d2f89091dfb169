-- Keeping the first row per key on a rowtime is insert-only and keeps the rowtime: an OVER aggregate may follow.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, SUM(price) OVER (PARTITION BY k ORDER BY ts ROWS 1 PRECEDING) AS s FROM (SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY ts) AS rn FROM bids) WHERE rn = 1);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, s], changelogMode=[I])
-- +- Calc(select=[k, s], changelogMode=[I])
--    +- OverAggregate(partitionBy=[k], orderBy=[ts ASC], window=[ROWS BETWEEN 1 PRECEDING AND CURRENT ROW], select=[k, id, price, ts, pt, rn, SUM(price) AS s], changelogMode=[I])
--       +- Calc(select=[k, id, price, ts, pt, CAST(1 AS BIGINT) AS rn], changelogMode=[I])
--          +- Deduplicate(keep=[FirstRow], key=[id], order=[ROWTIME], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[k, id, price, ts, pt], changelogMode=[I])
