-- dynsql demo tables: the rows the seed documents show (`dynsql --demo` / `make run` runs this file).
-- '${DEMO_DIR}' stands for this folder's absolute path.

-- MATCH_RECOGNIZE page: stock prices of ACME, one row per second.
CREATE TABLE Ticker (
  symbol  STRING,
  rowtime TIMESTAMP(3),
  price   BIGINT,
  tax     BIGINT,
  WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${DEMO_DIR}/ticker.csv',
  'format' = 'csv'
);

-- Dynamic tables page: a click stream (12:00-13:59, two hourly windows).
CREATE TABLE clicks (
  `user` STRING,
  cTime  TIMESTAMP(3),
  url    STRING,
  WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${DEMO_DIR}/clicks.csv',
  'format' = 'csv'
);

-- The same clicks, paced at one row per second, so a changelog unfolds visibly:
--   SELECT `user`, COUNT(url) AS cnt FROM clicks_live GROUP BY `user`;
CREATE TABLE clicks_live (
  `user` STRING,
  cTime  TIMESTAMP(3),
  url    STRING,
  WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND
) WITH (
  'connector' = 'filesystem',
  'path' = '${DEMO_DIR}/clicks.csv',
  'format' = 'csv',
  'replay.rows-per-second' = '1'
);

-- Versioned tables page: an append-only stream of currency rates.
CREATE TABLE currency_rates (
  currency    STRING,
  rate        DECIMAL(32, 10),
  update_time TIMESTAMP(3),
  WATERMARK FOR update_time AS update_time
) WITH (
  'connector' = 'filesystem',
  'path' = '${DEMO_DIR}/currency_rates.csv',
  'format' = 'csv'
);

-- Orders to convert with the rate valid at order time (temporal join).
CREATE TABLE orders (
  order_id   STRING,
  price      DECIMAL(10, 2),
  currency   STRING,
  order_time TIMESTAMP(3),
  WATERMARK FOR order_time AS order_time
) WITH (
  'connector' = 'filesystem',
  'path' = '${DEMO_DIR}/orders.csv',
  'format' = 'csv'
);

-- Versioned tables page: the products changelog (a versioned table source, debezium-json).
CREATE TABLE products (
  product_id   STRING,
  product_name STRING,
  price        DECIMAL(32, 2),
  update_time  TIMESTAMP(3),
  PRIMARY KEY (product_id) NOT ENFORCED,
  WATERMARK FOR update_time AS update_time
) WITH (
  'connector' = 'filesystem',
  'path' = '${DEMO_DIR}/products.json',
  'format' = 'debezium-json'
);

-- Orders of products, to join with the price valid at order time.
CREATE TABLE product_orders (
  order_id   STRING,
  product_id STRING,
  order_time TIMESTAMP(3),
  WATERMARK FOR order_time AS order_time
) WITH (
  'connector' = 'filesystem',
  'path' = '${DEMO_DIR}/product_orders.csv',
  'format' = 'csv'
);

-- A versioned view over currency_rates: the latest rate per currency.
CREATE VIEW versioned_rates AS
SELECT currency, rate, update_time
  FROM (
      SELECT *,
      ROW_NUMBER() OVER (PARTITION BY currency
         ORDER BY update_time DESC) AS rownum
      FROM currency_rates)
WHERE rownum = 1;
