-- IN (subquery) under OR: Flink plans a mark join; not supported here yet.
CREATE TABLE orders (id INT, cust STRING, amount INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.json', 'format' = 'json');
CREATE TABLE custs (name STRING, region STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/custs.json', 'format' = 'json');
SELECT id FROM orders WHERE cust IN (SELECT name FROM custs) OR id = 2;
-- error:
-- IN and EXISTS with a subquery are supported as conditions of WHERE (joined by AND) only (at line 4, column 29)
