-- An upper bound that is not a time attribute (computed, as Nexmark q4/q6/q9's expires): a regular join, as Flink plans it.
CREATE TABLE orders (id STRING, item STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE shipments (id STRING, ship STRING, sts TIMESTAMP(3), WATERMARK FOR sts AS sts - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/shipments.csv', 'format' = 'csv');
SELECT o.id FROM orders o JOIN (SELECT id, sts, sts + INTERVAL '1' HOUR AS expires FROM shipments) s ON o.id = s.id AND o.ots BETWEEN s.sts AND s.expires;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id], changelogMode=[I])
-- +- Calc(select=[id], changelogMode=[I])
--    +- Join(joinType=[InnerJoin], where=[AND(=(id, id0), ots BETWEEN sts AND expires)], select=[id, item, ots, id0, sts, expires], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, item, ots], changelogMode=[I])
--       +- Calc(select=[id, sts, sts + INTERVAL '1' HOUR AS expires], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[id, ship, sts], changelogMode=[I])
