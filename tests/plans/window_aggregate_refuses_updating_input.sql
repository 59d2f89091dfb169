-- A window aggregate over a changelog source: it consumes only inserts.
CREATE TABLE products (id STRING, price INT, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
SELECT window_start, window_end, SUM(price) AS s FROM TABLE(TUMBLE(TABLE products, DESCRIPTOR(ts), INTERVAL '5' SECOND)) GROUP BY window_start, window_end;
-- error:
-- WindowAggregate doesn't support consuming update and delete changes which is produced by node TableSourceScan(table=[[default_catalog, default_database, products]], fields=[id, price, ts]) (at line 3, column 131)
