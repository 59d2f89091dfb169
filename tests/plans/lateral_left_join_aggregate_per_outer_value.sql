-- A LEFT JOIN LATERAL that aggregates without GROUP BY, planned per distinct outer value (lateral_by_outer_values.py):
-- the derived table's COUNT grouped by the distinct order ids it is joined with, LEFT joined back on them; its one
-- column computed over the join (an order without items: COUNT 0, as Flink's count-bug rewrite gives it).
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE items (oid INT, cust STRING, c INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/items.json', 'format' = 'json');
SELECT o.id, n.c FROM orders o LEFT JOIN LATERAL (SELECT COUNT(*) AS c FROM items i WHERE i.oid = o.id) n ON TRUE;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[id, c], changelogMode=[I,UB,UA,D])
-- +- Calc(select=[id, (COALESCE($a2, 0)) AS c], changelogMode=[I,UB,UA,D])
--    +- Join(joinType=[LeftOuterJoin], where=[=(id, $c4)], select=[id, cust, amount, $a2, $c4], changelogMode=[I,UB,UA,D])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
--       +- Calc(select=[$a2, $o3 AS $c4], changelogMode=[I,UB,UA,D])
--          +- GroupAggregate(groupBy=[$o3], select=[$o3, COUNT(*) AS $a2], changelogMode=[I,UB,UA,D])
--             +- Calc(select=[$o3], changelogMode=[I,UB,UA])
--                +- Join(joinType=[InnerJoin], where=[=(oid, $o3)], select=[oid, cust, c, $o3], changelogMode=[I,UB,UA])
--                   :- TableSourceScan(table=[[default_catalog, default_database, items]], fields=[oid, cust, c], changelogMode=[I])
--                   +- GroupAggregate(groupBy=[$o3], select=[$o3], changelogMode=[I,UB,UA])
--                      +- Calc(select=[id AS $o3], changelogMode=[I])
--                         +- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[id, cust, amount], changelogMode=[I])
