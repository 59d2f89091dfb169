-- A changelog source as the versioned table: read without its -U rows (DropUpdateBefore).
CREATE TABLE currency_rates (currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM currency_rates) WHERE rownum = 1;
CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE products (product_id STRING, price DECIMAL(10, 2), update_time TIMESTAMP(3), PRIMARY KEY (product_id) NOT ENFORCED, WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
SELECT o.order_id, p.price FROM orders AS o JOIN products FOR SYSTEM_TIME AS OF o.order_time AS p ON o.currency = p.product_id;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[order_id, price], changelogMode=[I])
-- +- Calc(select=[order_id, price0 AS price], changelogMode=[I])
--    +- TemporalJoin(joinType=[InnerJoin], where=[AND(=(currency, product_id), __TEMPORAL_JOIN_CONDITION(order_time, update_time, __TEMPORAL_JOIN_CONDITION_PRIMARY_KEY(product_id), __TEMPORAL_JOIN_LEFT_KEY(currency), __TEMPORAL_JOIN_RIGHT_KEY(product_id)))], select=[order_id, price, currency, order_time, product_id, price0, update_time], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, price, currency, order_time], changelogMode=[I])
--       +- DropUpdateBefore(changelogMode=[I,UA,D])
--          +- TableSourceScan(table=[[default_catalog, default_database, products]], fields=[product_id, price, update_time], changelogMode=[I,UB,UA,D])
