-- A RANGE interval on a proctime, with DISTINCT (Flink 2.3 plans it in streaming).
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, COUNT(DISTINCT price) OVER (PARTITION BY k ORDER BY pt RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS c FROM bids;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, c], changelogMode=[I])
-- +- Calc(select=[k, c], changelogMode=[I])
--    +- OverAggregate(partitionBy=[k], orderBy=[pt ASC], window=[RANGE BETWEEN 2000 PRECEDING AND CURRENT ROW], select=[k, id, price, ts, pt, COUNT(DISTINCT price) AS c], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[k, id, price, ts, pt], changelogMode=[I])
