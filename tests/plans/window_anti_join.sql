-- A window anti join (NOT EXISTS correlated on both window bounds): insert-only, the left's time attributes kept.
CREATE TABLE LeftTable (row_time TIMESTAMP(3), num INT, id STRING, WATERMARK FOR row_time AS row_time - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/left.json', 'format' = 'json');
CREATE TABLE RightTable (row_time TIMESTAMP(3), num INT, id STRING, WATERMARK FOR row_time AS row_time - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/right.json', 'format' = 'json');
SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L WHERE NOT EXISTS (SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R WHERE L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end);
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[row_time, num, id, window_start, window_end, window_time], changelogMode=[I])
-- +- WindowJoin(leftWindow=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 min])], rightWindow=[TUMBLE(win_start=[$c2], win_end=[$c3], size=[5 min])], joinType=[LeftAntiJoin], where=[=(num, $c1)], select=[row_time, num, id, window_start, window_end, window_time], changelogMode=[I])
--    :- WindowTableFunction(window=[TUMBLE(time_col=[row_time], size=[5 min])], changelogMode=[I])
--    :  +- TableSourceScan(table=[[default_catalog, default_database, LeftTable]], fields=[row_time, num, id], changelogMode=[I])
--    +- Calc(select=[row_time, num, id, window_start, window_end, window_time, num AS $c1, window_start AS $c2, window_end AS $c3], changelogMode=[I])
--       +- WindowTableFunction(window=[TUMBLE(time_col=[row_time], size=[5 min])], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, RightTable]], fields=[row_time, num, id], changelogMode=[I])
