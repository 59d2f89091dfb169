-- A versioned table needs a primary key: a plain append-only table has none.
CREATE TABLE currency_rates (currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM currency_rates) WHERE rownum = 1;
CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
SELECT * FROM orders AS o JOIN currency_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;
-- error:
-- Temporal Table Join requires primary key in versioned table, but no primary key can be found. (at line 5, column 32)
-- Hint: declare PRIMARY KEY (...) NOT ENFORCED on 'currency_rates', or join a versioned view (a versioned view has the form SELECT ... FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY key ORDER BY time_attr DESC) AS rownum FROM t) WHERE rownum = 1)
