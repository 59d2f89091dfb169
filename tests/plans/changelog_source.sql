-- A debezium-json source is a retract stream.
CREATE TABLE products (product_id STRING, price DECIMAL(32, 2), update_time TIMESTAMP(3), PRIMARY KEY (product_id) NOT ENFORCED, WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
SELECT * FROM products;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[product_id, price, update_time], changelogMode=[I,UB,UA,D])
-- +- TableSourceScan(table=[[default_catalog, default_database, products]], fields=[product_id, price, update_time], changelogMode=[I,UB,UA,D])
