-- A regular join's output has no time attribute (Flink materializes it): no window over it.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
CREATE TABLE payments (payer STRING, pts TIMESTAMP(3), pref STRING, WATERMARK FOR pts AS pts) WITH ('connector' = 'filesystem', 'path' = '/tmp/payments.csv', 'format' = 'csv');
SELECT * FROM TABLE(TUMBLE((SELECT e.ts, p.pref FROM events e JOIN payments p ON e.`user` = p.payer), DESCRIPTOR(ts), INTERVAL '5' SECOND));
-- error:
-- The window function requires the timecol is a time attribute type, but is TIMESTAMP(3). (at line 4, column 21)
