-- Window Top-N over a window aggregate.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY total DESC) AS rn FROM (SELECT window_start, window_end, `user`, SUM(amount) AS total FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, `user`)) WHERE rn <= 2;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[window_start, window_end, user, total, rn], changelogMode=[I])
-- +- WindowRank(window=[TUMBLE(win_start=[window_start], win_end=[window_end], size=[5 s])], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[], orderBy=[total DESC], select=[window_start, window_end, user, total, rn], changelogMode=[I])
--    +- Calc(select=[window_start, window_end, user, total], changelogMode=[I])
--       +- WindowAggregate(groupBy=[user], window=[TUMBLE(time_col=[ts], size=[5 s])], select=[user, SUM(amount) AS total, start('w$) AS window_start, end('w$) AS window_end], changelogMode=[I])
--          +- Calc(select=[user, amount, ts], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, events]], fields=[user, ts, amount], changelogMode=[I])
