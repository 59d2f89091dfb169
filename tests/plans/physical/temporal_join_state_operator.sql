-- With dynsql.temporal-join.per-micro-batch = false: micro-batches and dynsql's temporal join operator.
CREATE TABLE rates (currency STRING, rate DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '${DATA}/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY ts DESC) AS rn FROM rates) WHERE rn = 1;
CREATE TABLE orders (id STRING, price DECIMAL(10, 2), currency STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots) WITH ('connector' = 'filesystem', 'path' = '${DATA}/orders.csv', 'format' = 'csv');
SET 'dynsql.one-pass.enabled' = 'false';
SET 'dynsql.temporal-join.per-micro-batch' = 'false';
SELECT o.id, o.price * r.rate AS converted FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.ots AS r ON o.currency = r.currency;
-- physical:
-- micro-batches (dynsql.one-pass.enabled = false)
-- Sink
-- +- Calc
--    +- TemporalJoin: dynsql's temporal join (dynsql.temporal-join.per-micro-batch = false; versions: the versioned view's input rows, its Deduplicate in the join)
--       :- WatermarkAssigner(rowtime=[ots], delay=[0 ms]): Spark's watermark
--       :  +- TableSourceScan(orders): read in micro-batches (filesystem: 1 file, 66 B, bounded, whole in the first micro-batch)
--       +- WatermarkAssigner(rowtime=[ts], delay=[0 ms]): Spark's watermark
--          +- TableSourceScan(rates): read in micro-batches (filesystem: 1 file, 87 B, bounded, whole in the first micro-batch)
