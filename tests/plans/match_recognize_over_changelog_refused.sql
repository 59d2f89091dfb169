-- A changelog source's updates and deletes are not events: Flink's refusal, at the MATCH_RECOGNIZE.
CREATE TABLE products (product_id STRING, price BIGINT, update_time TIMESTAMP(3), PRIMARY KEY (product_id) NOT ENFORCED, WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
SELECT * FROM products MATCH_RECOGNIZE (PARTITION BY product_id ORDER BY update_time MEASURES A.price AS p ONE ROW PER MATCH PATTERN (A B) DEFINE B AS B.price > A.price) AS M;
-- error:
-- Match Recognize doesn't support consuming update and delete changes which is produced by node TableSourceScan(table=[[default_catalog, default_database, products]], fields=[product_id, price, update_time]) (at line 3, column 41)
