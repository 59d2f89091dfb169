-- Processing-time bounds next to an event-time attribute: Flink's refusal.
CREATE TABLE orders (id STRING, item STRING, ots TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ots AS ots - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE shipments (id STRING, ship STRING, pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '/tmp/shipments.csv', 'format' = 'csv');
SELECT * FROM orders o JOIN shipments s ON o.id = s.id AND o.pt BETWEEN s.pt - INTERVAL '1' MINUTE AND s.pt;
-- error:
-- Interval join with proctime attribute requires no event-time attributes are in the join inputs. (at line 4, column 29)
