-- A FULL interval join with a condition beyond its keys and bounds (tested while rows are paired).
CREATE TABLE orders (id STRING, item STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE shipments (id STRING, ship STRING, sts TIMESTAMP(3), WATERMARK FOR sts AS sts - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/shipments.csv', 'format' = 'csv');
SELECT o.id, s.ship FROM orders o FULL JOIN shipments s ON o.id = s.id AND s.sts BETWEEN o.ots - INTERVAL '5' MINUTE AND o.ots + INTERVAL '1' HOUR AND s.ship <> o.item;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, ship], changelogMode=[I])
-- +- Calc(select=[id, ship], changelogMode=[I])
--    +- IntervalJoin(joinType=[FullOuterJoin], windowBounds=[isRowTime=true, leftLowerBound=-3600000, leftUpperBound=300000, leftTimeIndex=2, rightTimeIndex=2], where=[AND(=(id, id0), sts >= ots - INTERVAL '5' MINUTE, sts <= ots + INTERVAL '1' HOUR, ship <> item)], select=[id, item, ots, id0, ship, sts], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, item, ots], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[id, ship, sts], changelogMode=[I])
