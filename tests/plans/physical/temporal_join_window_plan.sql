-- Without broadcasting (Spark's limit -1): the as-of join on window functions.
CREATE TABLE rates (currency STRING, rate DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '${DATA}/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY ts DESC) AS rn FROM rates) WHERE rn = 1;
CREATE TABLE orders (id STRING, price DECIMAL(10, 2), currency STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots) WITH ('connector' = 'filesystem', 'path' = '${DATA}/orders.csv', 'format' = 'csv');
SET 'spark.sql.autoBroadcastJoinThreshold' = '-1';
SELECT o.id, o.price * r.rate AS converted FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.ots AS r ON o.currency = r.currency;
-- physical:
-- one pass (153 B in 2 files <= dynsql.one-pass.max-input-size 64.0 MB)
-- one pass: rows shown at the end of the input (SET 'dynsql.one-pass.enabled' = 'false')
-- Sink
-- +- Calc
--    +- TemporalJoin: as-of join on Spark's window functions (versions 87 B > spark.sql.autoBroadcastJoinThreshold -1; versions: the versioned view's input rows, its Deduplicate in the join)
--       :- TableSourceScan(orders): read in pieces (filesystem: 1 file, 66 B, bounded, whole in the first micro-batch)
--       +- TableSourceScan(rates): read in pieces (filesystem: 1 file, 87 B, bounded, whole in the first micro-batch)
