-- A probe table read in the micro-batches its 'scan.rows-per-batch' asks for stays on micro-batches (their changelog is the user's): no pieces.
CREATE TABLE rates (currency STRING, rate DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '${DATA}/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY ts DESC) AS rn FROM rates) WHERE rn = 1;
CREATE TABLE orders (id STRING, price DECIMAL(10, 2), currency STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots) WITH ('connector' = 'filesystem', 'path' = '${DATA}/orders.csv', 'format' = 'csv', 'scan.rows-per-batch' = '2');
SET 'dynsql.one-pass.max-input-size' = '100 b';
SELECT o.id, o.price * r.rate AS converted FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.ots AS r ON o.currency = r.currency;
-- physical:
-- micro-batches (an input or an operator that a single batch job would not give streaming's rows)
-- Sink
-- +- Calc
--    +- TemporalJoin: Spark's as-of join per micro-batch, held probe rows carried (a SELECT's result on micro-batches; versions: the versioned view's input rows, its Deduplicate in the join)
--       :- WatermarkAssigner(rowtime=[ots], delay=[0 ms]): Spark's watermark
--       :  +- TableSourceScan(orders): read in micro-batches (filesystem: 1 file, 66 B, bounded)
--       +- WatermarkAssigner(rowtime=[ts], delay=[0 ms]): Spark's watermark
--          +- TableSourceScan(rates): read in micro-batches (filesystem: 1 file, 87 B, bounded, whole in the first micro-batch)
