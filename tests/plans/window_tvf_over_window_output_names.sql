-- A window function over rows that already have window_time: SELECT * names it twice, as Flink refuses.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
CREATE VIEW agg1 AS SELECT window_time, `user`, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, window_time, `user`;
SELECT * FROM TABLE(TUMBLE(TABLE agg1, DESCRIPTOR(window_time), INTERVAL '10' SECOND));
-- error:
-- Column 'window_time' is ambiguous (at line 4, column 1)
