-- A legacy group window over a plain timestamp.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT COUNT(*) FROM (SELECT CAST(ts AS TIMESTAMP(3)) AS t FROM events) GROUP BY TUMBLE(t, INTERVAL '10' SECOND);
-- error:
-- Window aggregate can only be defined over a time attribute column, but TIMESTAMP(3) encountered. (at line 3, column 89)
