-- UNNEST over an updating aggregate: the Correlate passes each change to the element rows, and asks its input
-- for -U rows (an upsert of a row cannot say which of its element rows to replace).
CREATE TABLE n (id INT, tags ARRAY<STRING>) WITH ('connector' = 'filesystem', 'path' = '/tmp/n.json', 'format' = 'json');
SELECT k, x FROM (SELECT MOD(id, 2) AS k, COUNT(*) AS c FROM n GROUP BY MOD(id, 2)) CROSS JOIN UNNEST(ARRAY[c, c * 10]) AS t(x);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[k, x], changelogMode=[I,UB,UA])
-- +- Calc(select=[k, x], changelogMode=[I,UB,UA])
--    +- Correlate(invocation=[$UNNEST_ROWS$1(ARRAY(c, c * 10))], correlate=[table($UNNEST_ROWS$1(ARRAY(c, c * 10)))], select=[k, c, x], joinType=[INNER], changelogMode=[I,UB,UA])
--       +- Calc(select=[$f1 AS k, c], changelogMode=[I,UB,UA])
--          +- GroupAggregate(groupBy=[$f1], select=[$f1, COUNT(*) AS c], changelogMode=[I,UB,UA])
--             +- Calc(select=[id % 2 AS $f1], changelogMode=[I])
--                +- TableSourceScan(table=[[default_catalog, default_database, n]], fields=[id, tags], changelogMode=[I])
