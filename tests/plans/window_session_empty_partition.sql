-- PARTITION BY with no column in a SESSION window is refused where it stands (it crashed the planner).
CREATE TABLE events (`user` STRING, ts TIMESTAMP(3), amount INT, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/events.csv', 'format' = 'csv');
SELECT * FROM TABLE(SESSION(TABLE events PARTITION BY , DESCRIPTOR(ts), INTERVAL '10' MINUTES));
-- error:
-- PARTITION BY of SESSION takes column names: PARTITION BY k or PARTITION BY (k1, k2) (at line 3, column 35)
