-- ROLLUP over a window TVF of a changelog: the window aggregate refuses the updates, naming the source (the Expand forwards them, as Flink's does).
CREATE TABLE products (id INT, name STRING, price INT, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts) WITH ('connector' = 'filesystem', 'path' = '/tmp/products.json', 'format' = 'debezium-json');
SELECT window_start, window_end, name, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE products, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, ROLLUP(name);
-- error:
-- WindowAggregate doesn't support consuming update and delete changes which is produced by node TableSourceScan(table=[[default_catalog, default_database, products]], fields=[id, name, price, ts]) (at line 3, column 136)
