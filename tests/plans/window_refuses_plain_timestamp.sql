-- A TIMESTAMP column without a WATERMARK is not a time attribute.
CREATE TABLE plain (`user` STRING, ts TIMESTAMP(3), amount INT, p AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM TABLE(TUMBLE(TABLE plain, DESCRIPTOR(ts), INTERVAL '5' SECOND));
-- error:
-- The window function requires the timecol is a time attribute type, but is TIMESTAMP(3). (at line 3, column 21)
