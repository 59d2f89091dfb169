-- A processing-time temporal join is refused, at the AS OF column.
CREATE TABLE currency_rates (currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM currency_rates) WHERE rownum = 1;
CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE clicks (currency STRING, pt AS PROCTIME()) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
SELECT * FROM clicks AS c JOIN versioned_rates FOR SYSTEM_TIME AS OF c.pt AS r ON c.currency = r.currency;
-- error:
-- Processing-time temporal join is not supported yet. (at line 6, column 72)
-- Hint: use the left side's event time (its WATERMARK column) in FOR SYSTEM_TIME AS OF
