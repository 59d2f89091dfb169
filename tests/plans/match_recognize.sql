-- MATCH_RECOGNIZE over a table: insert-only in and out, MATCH_ROWTIME() a rowtime of its output.
CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/ticker.csv', 'format' = 'csv');
SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES A.price AS a_price, MATCH_ROWTIME() AS mt ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A B) DEFINE B AS B.price > A.price) AS M;
-- plan:
-- Sink(table=[*anonymous_collect*], fields=[symbol, a_price, mt], changelogMode=[I])
-- +- Match(partitionBy=[symbol], orderBy=[rowtime ASC], measures=[A.price AS a_price, MATCH_ROWTIME() AS mt], rowsPerMatch=[ONE ROW PER MATCH], after=[SKIP PAST LAST ROW], pattern=[A B], define=[B AS B.price > A.price], changelogMode=[I])
--    +- TableSourceScan(table=[[default_catalog, default_database, Ticker]], fields=[symbol, rowtime, price, tax], changelogMode=[I])
