-- Batch mode: STDDEV_POP folds each group's values in arrival order, from the group's rows sorted so, keeping
-- (n, mean, m2) at a time (runtime/operators/moments_in_order.py); COUNT is Spark's aggregate, joined to it.
CREATE TABLE orders (id STRING, amount DECIMAL(10, 2), currency STRING, ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '${DATA}/orders.csv', 'format' = 'csv');
SET 'execution.runtime-mode' = 'batch';
SELECT currency, COUNT(*) AS n, STDDEV_POP(amount) AS sd FROM orders GROUP BY currency;
-- physical:
-- batch (execution.runtime-mode = batch)
-- Sink
-- +- GroupAggregate: Spark's aggregate (STDDEV_POP: each group's rows sorted by arrival and folded, (n, mean, m2) at a time)
--    +- Calc
--       +- TableSourceScan(orders): read in pieces (filesystem: 1 file, 66 B, bounded, whole in the first micro-batch; projection push-down: the scan of orders hands Spark amount, currency of its columns)
