-- An aggregate's MAX(ts) is a plain timestamp, not a time attribute.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM TABLE(TUMBLE((SELECT `user`, MAX(ts) AS t FROM events GROUP BY `user`), DESCRIPTOR(t), INTERVAL '5' SECOND));
-- error:
-- The window function requires the timecol is a time attribute type, but is TIMESTAMP(3). (at line 3, column 21)
