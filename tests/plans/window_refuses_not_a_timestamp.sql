-- The descriptor column must be a TIMESTAMP or TIMESTAMP_LTZ.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM TABLE(HOP(TABLE events, DESCRIPTOR(amount), INTERVAL '5' SECOND, INTERVAL '10' SECOND));
-- error:
-- The window function HOP(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, datetime interval]) requires the timecol to be TIMESTAMP or TIMESTAMP_LTZ, but is INTEGER. (at line 3, column 21)
