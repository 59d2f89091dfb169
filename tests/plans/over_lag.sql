-- LAG with an offset and a default over the default frame (Flink 2.3 runs it in streaming).
CREATE TABLE bids (k STRING, id INT, price INT, ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT k, LAG(price, 2, -1) OVER (PARTITION BY k ORDER BY ts) AS l FROM bids;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, l], changelogMode=[I])
-- +- Calc(select=[k, l], changelogMode=[I])
--    +- OverAggregate(partitionBy=[k], orderBy=[ts ASC], window=[RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW], select=[k, id, price, ts, pt, LAG(price, 2, -1) AS l], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[k, id, price, ts, pt], changelogMode=[I])
