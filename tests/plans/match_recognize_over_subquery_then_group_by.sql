-- GROUP BY over MATCH_RECOGNIZE over a subquery: the aggregate updates, the Match stays insert-only.
CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/ticker.csv', 'format' = 'csv');
SELECT symbol, COUNT(*) AS n FROM (SELECT * FROM (SELECT symbol, rowtime, price FROM Ticker WHERE tax < 5) MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES A.price AS a_price, MATCH_ROWTIME() AS mt ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A B) DEFINE B AS B.price > A.price) AS M) GROUP BY symbol;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[symbol, n], changelogMode=[I,UB,UA])
-- +- GroupAggregate(groupBy=[symbol], select=[symbol, COUNT(*) AS n], changelogMode=[I,UB,UA])
--    +- Calc(select=[symbol], changelogMode=[I])
--       +- Match(partitionBy=[symbol], orderBy=[rowtime ASC], measures=[A.price AS a_price, MATCH_ROWTIME() AS mt], rowsPerMatch=[ONE ROW PER MATCH], after=[SKIP PAST LAST ROW], pattern=[A B], define=[B AS B.price > A.price], changelogMode=[I])
--          +- Calc(select=[symbol, rowtime, price], where=[tax < 5], changelogMode=[I])
--             +- TableSourceScan(table=[[default_catalog, default_database, Ticker]], fields=[symbol, rowtime, price, tax], changelogMode=[I])
