-- MATCH_RECOGNIZE over a view that projects and filters a table (its rowtime passed on).
CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/ticker.csv', 'format' = 'csv');
CREATE VIEW dear AS SELECT symbol, rowtime, price FROM Ticker WHERE price > 10;
SELECT * FROM dear MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES A.price AS a_price, MATCH_ROWTIME() AS mt ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A B) DEFINE B AS B.price > A.price) AS M;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[symbol, a_price, mt], changelogMode=[I])
-- +- Match(partitionBy=[symbol], orderBy=[rowtime ASC], measures=[A.price AS a_price, MATCH_ROWTIME() AS mt], rowsPerMatch=[ONE ROW PER MATCH], after=[SKIP PAST LAST ROW], pattern=[A B], define=[B AS B.price > A.price], changelogMode=[I])
--    +- Calc(select=[symbol, rowtime, price], where=[price > 10], changelogMode=[I])
--       +- TableSourceScan(table=[[default_catalog, default_database, Ticker]], fields=[symbol, rowtime, price, tax], changelogMode=[I])
