-- OVER aggregates on a rowtime: one OverAggregate, insert-only (Flink 2.3); several calls over a named window.
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, id, SUM(price) OVER w AS s, COUNT(*) OVER w AS c FROM bids WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, id, s, c], changelogMode=[I])
-- +- Calc(select=[k, id, s, c], changelogMode=[I])
--    +- OverAggregate(partitionBy=[k], orderBy=[ts ASC], window=[ROWS BETWEEN 2 PRECEDING AND CURRENT ROW], select=[k, id, price, ts, pt, SUM(price) AS s, COUNT(*) AS c], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[k, id, price, ts, pt], changelogMode=[I])
