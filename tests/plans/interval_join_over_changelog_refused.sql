-- An interval join takes inserts only: Flink's refusal of a changelog source.
CREATE TABLE orders (id STRING, item STRING, ots TIMESTAMP(3), WATERMARK FOR ots AS ots - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
CREATE TABLE shipments (id STRING, ship STRING, sts TIMESTAMP(3), WATERMARK FOR sts AS sts - INTERVAL '1' MINUTE) WITH ('connector' = 'filesystem', 'path' = '/tmp/shipments.csv', 'format' = 'csv');
CREATE TABLE products (id STRING, price INT, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
SELECT * FROM orders o JOIN products p ON o.id = p.id AND o.ots BETWEEN p.ts - INTERVAL '1' MINUTE AND p.ts;
-- error:
-- StreamPhysicalIntervalJoin doesn't support consuming update and delete changes which is produced by node TableSourceScan(table=[[default_catalog, default_database, products]], fields=[id, price, ts]) (at line 5, column 29)
