-- An aggregate over a RIGHT interval join: the join stays insert-only.
CREATE TABLE orders (id STRING, item STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE shipments (id STRING, ship STRING, sts TIMESTAMP(3), WATERMARK FOR sts AS sts - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/shipments.csv', 'format' = 'csv');
SELECT s.id, COUNT(o.id) AS n FROM orders o RIGHT JOIN shipments s ON o.id = s.id AND s.sts BETWEEN o.ots AND o.ots + INTERVAL '1' HOUR GROUP BY s.id;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, n], changelogMode=[I,UB,UA])
-- +- Calc(select=[id0 AS id, n], changelogMode=[I,UB,UA])
--    +- GroupAggregate(groupBy=[id0], select=[id0, COUNT(id) AS n], changelogMode=[I,UB,UA])
--       +- Calc(select=[id0, id], changelogMode=[I])
--          +- IntervalJoin(joinType=[RightOuterJoin], windowBounds=[isRowTime=true, leftLowerBound=-3600000, leftUpperBound=0, leftTimeIndex=2, rightTimeIndex=2], where=[AND(=(id, id0), sts >= ots, sts <= ots + INTERVAL '1' HOUR)], select=[id, item, ots, id0, ship, sts], changelogMode=[I])
--             :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, item, ots], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, shipments]], fields=[id, ship, sts], changelogMode=[I])
