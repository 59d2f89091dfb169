-- STDDEV_POP and VAR_SAMP fold their values in arrival order (Flink's WELFORD_M2): on micro-batches dynsql's keyed
-- aggregate keeps (n, mean, m2) a key, where Spark's update-mode aggregate would keep every value of the key.
CREATE TABLE orders (id STRING, amount DECIMAL(10, 2), currency STRING, ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '${DATA}/orders.csv', 'format' = 'csv');
SET 'dynsql.one-pass.enabled' = 'false';
SELECT currency, COUNT(*) AS n, STDDEV_POP(amount) AS sd, VAR_SAMP(amount) AS v FROM orders GROUP BY currency;
-- physical:
-- micro-batches (dynsql.one-pass.enabled = false)
-- Sink
-- +- GroupAggregate: dynsql's keyed aggregate (STDDEV_POP, VAR_SAMP: (n, mean, m2) a key, folded in arrival order)
--    +- Calc
--       +- TableSourceScan(orders): read in micro-batches (filesystem: 1 file, 66 B, bounded, whole in the first micro-batch; projection push-down: the scan of orders hands Spark amount, currency of its columns)
