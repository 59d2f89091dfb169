-- Window Top-N takes only ROW_NUMBER (Flink 2.3).
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM (SELECT *, RANK() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC) AS r FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '5' SECOND))) WHERE r <= 2;
-- error:
-- RANK() function is not supported on Window TopN currently, only ROW_NUMBER() is supported. (at line 3, column 52)
