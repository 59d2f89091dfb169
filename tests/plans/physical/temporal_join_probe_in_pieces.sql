-- An event-time temporal join whose probe file is past dynsql.one-pass.max-input-size: one pass, the probe file cut in pieces (a multiple of the cores) that the in-memory as-of lookup's tasks read, a piece each; the versions read whole.
SET 'dynsql.one-pass.max-input-size' = '100 b';
SET 'dynsql.one-pass.piece-size' = '20 b';
CREATE TABLE rates (currency STRING, rate DECIMAL(10, 2), ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '${DATA}/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY ts DESC) AS rn FROM rates) WHERE rn = 1;
CREATE TABLE orders (id STRING, price DECIMAL(10, 2), currency STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots) WITH ('connector' = 'filesystem', 'path' = '${DATA}/orders.csv', 'format' = 'csv');
SELECT o.id, o.price * r.rate AS converted FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.ots AS r ON o.currency = r.currency;
-- physical:
-- one pass (probe rows of orders: 66 B in 1 file, 153 B in all > dynsql.one-pass.max-input-size 100 B: 4 pieces of 16 B read in parallel (dynsql.one-pass.piece-size 20 B, a multiple of 2 cores); versions whole in the first micro-batch)
-- one pass: rows shown at the end of the input (SET 'dynsql.one-pass.enabled' = 'false')
-- Sink
-- +- Calc
--    +- TemporalJoin: in-memory as-of lookup (versions 87 B <= spark.sql.autoBroadcastJoinThreshold 10.0 MB; probe rows: 4 pieces of the file read in the lookup's tasks; versions: the versioned view's input rows, its Deduplicate in the join)
--       :- TableSourceScan(orders): read in pieces (filesystem: 1 file, 66 B, bounded, whole in the first micro-batch; 4 pieces of 16 B)
--       +- TableSourceScan(rates): read in pieces (filesystem: 1 file, 87 B, bounded, whole in the first micro-batch)
