-- A LEFT interval join with strict bounds: each moves by a millisecond, as Flink's.
CREATE TABLE orders (id STRING, item STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE shipments (id STRING, ship STRING, sts TIMESTAMP(3), WATERMARK FOR sts AS sts - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/shipments.csv', 'format' = 'csv');
SELECT o.id, s.ship FROM orders o LEFT JOIN shipments s ON o.id = s.id AND o.ots > s.sts - INTERVAL '1' HOUR AND o.ots < s.sts;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, ship], changelogMode=[I])
-- +- Calc(select=[id, ship], changelogMode=[I])
--    +- IntervalJoin(joinType=[LeftOuterJoin], windowBounds=[isRowTime=true, leftLowerBound=-3599999, leftUpperBound=-1, leftTimeIndex=2, rightTimeIndex=2], where=[AND(=(id, id0), ots > sts - INTERVAL '1' HOUR, ots < sts)], select=[id, item, ots, id0, ship, sts], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, item, ots], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[id, ship, sts], changelogMode=[I])
