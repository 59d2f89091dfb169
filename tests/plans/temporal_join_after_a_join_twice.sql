-- Two temporal joins in one FROM, the first over a regular join's output (its rowtime still a time attribute for FOR SYSTEM_TIME AS OF, as Flink's validator sees it).
CREATE TABLE currency_rates (currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM currency_rates) WHERE rownum = 1;
CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE products (product_id STRING, price DECIMAL(10, 2), update_time TIMESTAMP(3), PRIMARY KEY (product_id) NOT ENFORCED, WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
CREATE TABLE customers (order_id STRING, name STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/customers.csv', 'format' = 'csv');
SELECT o.order_id, c.name, r.rate, p.price FROM orders o JOIN customers c ON o.order_id = c.order_id JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency LEFT JOIN products FOR SYSTEM_TIME AS OF o.order_time AS p ON o.currency = p.product_id;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[order_id, name, rate, price], changelogMode=[I])
-- +- Calc(select=[order_id, name, rate, price0 AS price], changelogMode=[I])
--    +- TemporalJoin(joinType=[LeftOuterJoin], where=[AND(=(currency, product_id), __TEMPORAL_JOIN_CONDITION(order_time, update_time0, __TEMPORAL_JOIN_CONDITION_PRIMARY_KEY(product_id), __TEMPORAL_JOIN_LEFT_KEY(currency), __TEMPORAL_JOIN_RIGHT_KEY(product_id)))], select=[order_id, price, currency, order_time, order_id0, name, currency0, rate, update_time, product_id, price0, update_time0], changelogMode=[I])
--       :- TemporalJoin(joinType=[InnerJoin], where=[AND(=(currency, currency0), __TEMPORAL_JOIN_CONDITION(order_time, update_time, __TEMPORAL_JOIN_CONDITION_PRIMARY_KEY(currency0), __TEMPORAL_JOIN_LEFT_KEY(currency), __TEMPORAL_JOIN_RIGHT_KEY(currency0)))], select=[order_id, price, currency, order_time, order_id0, name, currency0, rate, update_time], changelogMode=[I])
--       :  :- Join(joinType=[InnerJoin], where=[=(order_id, order_id0)], select=[order_id, price, currency, order_time, order_id0, name], changelogMode=[I])
--       :  :  :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, price, currency, order_time], changelogMode=[I])
--       :  :  +- TableSourceScan(table=[[default_catalog, default_database, customers]], fields=[order_id, name], changelogMode=[I])
--       :  +- Deduplicate(keep=[LastRow], key=[currency], order=[ROWTIME], changelogMode=[I,UA,D])
--       :     +- TableSourceScan(table=[[default_catalog, default_database, currency_rates]], fields=[currency, rate, update_time], changelogMode=[I])
--       +- DropUpdateBefore(changelogMode=[I,UA,D])
--          +- TableSourceScan(table=[[default_catalog, default_database, products]], fields=[product_id, price, update_time], changelogMode=[I,UB,UA,D])
