-- ROW_NUMBER() on a rowtime without a filter on it is an OverAggregate numbering rows in time order, insert-only (Flink 2.3).
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, id, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn FROM bids;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, id, rn], changelogMode=[I])
-- +- Calc(select=[k, id, rn], changelogMode=[I])
--    +- OverAggregate(partitionBy=[k], orderBy=[ts ASC], window=[ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW], select=[k, id, price, ts, pt, ROW_NUMBER() AS rn], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[k, id, price, ts, pt], changelogMode=[I])
