-- An aggregating view updates its rows: refused before Flink would check ORDER BY.
CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/ticker.csv', 'format' = 'csv');
CREATE VIEW totals AS SELECT symbol, MAX(rowtime) AS rowtime, SUM(price) AS price FROM Ticker GROUP BY symbol;
SELECT * FROM totals MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES A.price AS p ONE ROW PER MATCH PATTERN (A B) DEFINE B AS B.price > A.price) AS M;
-- error:
-- Match Recognize doesn't support consuming update changes which is produced by node GroupAggregate(groupBy=[symbol], select=[symbol, MAX(rowtime) AS rowtime, SUM(price) AS price]) (at line 4, column 39)
