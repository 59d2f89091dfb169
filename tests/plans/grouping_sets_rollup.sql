-- ROLLUP under an ordinary aggregate: an Expand (each row once per set, the absent keys NULL, $e) under a GroupAggregate keyed by the keys and $e; GROUPING and GROUPING_ID computed from $e in the Calc above; an aggregated key read from a copy.
CREATE TABLE bids (bidtime TIMESTAMP(3), supplier_id STRING, item STRING, price INT, WATERMARK FOR bidtime AS bidtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/bids.csv', 'format' = 'csv');
SELECT supplier_id, item, SUM(price) AS total, MAX(supplier_id) AS top, GROUPING(supplier_id) AS g, GROUPING_ID(supplier_id, item) AS gid FROM bids GROUP BY ROLLUP(supplier_id, item);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[supplier_id, item, total, top, g, gid], changelogMode=[I,UB,UA])
-- +- Calc(select=[supplier_id, item, total, top, GROUPING(supplier_id) AS g, GROUPING_ID(supplier_id, item) AS gid], changelogMode=[I,UB,UA])
--    +- GroupAggregate(groupBy=[supplier_id, item, $e2], select=[supplier_id, item, $e2, SUM(price) AS total, MAX($f1) AS top], changelogMode=[I,UB,UA])
--       +- Expand(projects=[{supplier_id, item, price, $f1, 0 AS $e2}, {supplier_id, null AS item, price, $f1, 1 AS $e2}, {null AS supplier_id, null AS item, price, $f1, 3 AS $e2}], changelogMode=[I])
--          +- Calc(select=[supplier_id, item, price, supplier_id AS $f1], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, bids]], fields=[bidtime, supplier_id, item, price], changelogMode=[I])
