-- The bounds from WHERE over a comma join (moved into the join), without equi keys.
CREATE TABLE orders (id STRING, item STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE shipments (id STRING, ship STRING, sts TIMESTAMP(3), WATERMARK FOR sts AS sts - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/shipments.csv', 'format' = 'csv');
SELECT o.id, s.ship FROM orders o, shipments s WHERE o.ots >= s.sts - INTERVAL '10' MINUTE AND o.ots <= s.sts + INTERVAL '10' MINUTE;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, ship], changelogMode=[I])
-- +- Calc(select=[id, ship], changelogMode=[I])
--    +- IntervalJoin(joinType=[InnerJoin], windowBounds=[isRowTime=true, leftLowerBound=-600000, leftUpperBound=600000, leftTimeIndex=2, rightTimeIndex=2], where=[AND(ots >= sts - INTERVAL '10' MINUTE, ots <= sts + INTERVAL '10' MINUTE)], select=[id, item, ots, id0, ship, sts], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, item, ots], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[id, ship, sts], changelogMode=[I])
