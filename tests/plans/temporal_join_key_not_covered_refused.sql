-- The ON equalities must cover the versioned side's primary key.
CREATE TABLE currency_rates (currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM currency_rates) WHERE rownum = 1;
CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
SELECT * FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.price = r.rate;
-- error:
-- Temporal table's primary key [currency] must be included in the equivalence condition of temporal join, but current temporal join condition is [o.price = r.rate]. (at line 5, column 93)
