-- GROUP BY over a temporal join (Flink allows it): the aggregate updates over the join's inserts.
CREATE TABLE currency_rates (currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3), WATERMARK FOR update_time AS update_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/rates.csv', 'format' = 'csv');
CREATE VIEW versioned_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum FROM currency_rates) WHERE rownum = 1;
CREATE TABLE orders (order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3), WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '/tmp/orders.csv', 'format' = 'csv');
SELECT r.currency, COUNT(*) AS n FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency GROUP BY r.currency;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[currency, n], changelogMode=[I,UB,UA])
-- +- Calc(select=[currency0 AS currency, n], changelogMode=[I,UB,UA])
--    +- GroupAggregate(groupBy=[currency0], select=[currency0, COUNT(*) AS n], changelogMode=[I,UB,UA])
--       +- Calc(select=[currency0], changelogMode=[I])
--          +- TemporalJoin(joinType=[InnerJoin], where=[AND(=(currency, currency0), __TEMPORAL_JOIN_CONDITION(order_time, update_time, __TEMPORAL_JOIN_CONDITION_PRIMARY_KEY(currency0), __TEMPORAL_JOIN_LEFT_KEY(currency), __TEMPORAL_JOIN_RIGHT_KEY(currency0)))], select=[order_id, price, currency, order_time, currency0, rate, update_time], changelogMode=[I])
--             :- TableSourceScan(table=[[default_catalog, default_database, orders]], fields=[order_id, price, currency, order_time], changelogMode=[I])
--             +- Deduplicate(keep=[LastRow], key=[currency], order=[ROWTIME], changelogMode=[I,UA,D])
--                +- TableSourceScan(table=[[default_catalog, default_database, currency_rates]], fields=[currency, rate, update_time], changelogMode=[I])
