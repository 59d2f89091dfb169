-- A scalar subquery that does not aggregate: Flink checks its row count at run time (SINGLE_VALUE); refused here.
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id, (SELECT amount FROM orders WHERE cust = 'Alice') FROM orders;
-- error:
-- A scalar subquery must return at most one row: dynsql runs one that aggregates without GROUP BY (at line 4, column 20)
-- Hint: Flink checks the row count at run time; write the subquery with an aggregate
