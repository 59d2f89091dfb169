-- A processing-time temporal join against a table of Flink's legacy keys (its CsvTableSource, a lookup source):
-- a LookupJoin on an expression of the probe side (Nexmark q13), insert-only as its probe side.
CREATE TABLE side_input (key BIGINT, `value` VARCHAR) WITH ('connector.type' = 'filesystem', 'connector.path' = 'file:///tmp/side_input.txt', 'format.type' = 'csv');
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3)) WITH ('connector' = 'filesystem', 'path' = '/tmp/bid.csv', 'format' = 'csv');
SELECT B.auction, B.price, S.`value` FROM (SELECT *, PROCTIME() AS p_time FROM bid) B LEFT JOIN side_input FOR SYSTEM_TIME AS OF B.p_time AS S ON MOD(B.auction, 10000) = S.key;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[auction, price, value], changelogMode=[I])
-- +- Calc(select=[auction, price, value], changelogMode=[I])
--    +- LookupJoin(table=[default_catalog.default_database.side_input], joinType=[LeftOuterJoin], lookup=[key=auction % 10000], where=[auction % 10000 = key], select=[auction, bidder, price, dateTime, p_time, key, value], changelogMode=[I])
--       +- Calc(select=[auction, bidder, price, dateTime, PROCTIME() AS p_time], changelogMode=[I])
--          +- TableSourceScan(table=[[default_catalog, default_database, bid]], fields=[auction, bidder, price, dateTime], changelogMode=[I])
