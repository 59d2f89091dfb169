-- An event-time temporal join with a versioned view: its deduplication (keep the last row) read without -U; the left rowtime stays a rowtime.
CREATE TABLE currency_rates (currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM currency_rates) WHERE rownum = 1;
CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
SELECT o.order_id, o.price * r.rate AS converted, o.order_time FROM orders AS o LEFT JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[order_id, converted, order_time], changelogMode=[I])
-- +- Calc(select=[order_id, price * rate AS converted, order_time], changelogMode=[I])
--    +- TemporalJoin(joinType=[LeftOuterJoin], where=[AND(=(currency, currency0), __TEMPORAL_JOIN_CONDITION(order_time, update_time, __TEMPORAL_JOIN_CONDITION_PRIMARY_KEY(currency0), __TEMPORAL_JOIN_LEFT_KEY(currency), __TEMPORAL_JOIN_RIGHT_KEY(currency0)))], select=[order_id, price, currency, order_time, currency0, rate, update_time], changelogMode=[I])
--       :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, price, currency, order_time], changelogMode=[I])
--       +- Deduplicate(keep=[LastRow], key=[currency], order=[ROWTIME], changelogMode=[I,UA,D])
--          +- TableSourceScan(table=[[default_catalog, default_database, currency_rates]], fields=[currency, rate, update_time], changelogMode=[I])
