-- A filter over a changelog source's rows would corrupt its versions: refused as Flink does.
CREATE TABLE currency_rates (currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM currency_rates) WHERE rownum = 1;
CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE products (product_id STRING, price DECIMAL(10, 2), update_time TIMESTAMP(3), PRIMARY KEY (product_id) NOT ENFORCED, WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
CREATE VIEW cheap AS SELECT product_id, price, update_time FROM products WHERE price < 10;
SELECT o.order_id, p.price FROM orders AS o JOIN cheap FOR SYSTEM_TIME AS OF o.order_time AS p ON o.currency = p.product_id;
-- error:
-- Filter is not allowed for right changelog input of event time temporal join, it will corrupt the versioning of data. Please consider removing the filter before joining. (at line 7, column 50)
