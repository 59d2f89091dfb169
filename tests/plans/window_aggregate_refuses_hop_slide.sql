-- A HOP aggregate needs a size that is a multiple of the slide.
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT COUNT(*) FROM TABLE(HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '3' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end;
-- error:
-- HOP table function based aggregate requires size must be an integral multiple of slide, but got size 10000 ms and slide 3000 ms (at line 3, column 115)
