-- A regular join's output has no time attributes left: ORDER BY rowtime is refused, as Flink does.
CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price BIGINT, tax BIGINT, WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/ticker.csv', 'format' = 'csv');
SELECT * FROM (SELECT a.symbol, a.rowtime, a.price FROM Ticker a JOIN Ticker b ON a.symbol = b.symbol) MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES A.price AS a_price, MATCH_ROWTIME() AS mt ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A B) DEFINE B AS B.price > A.price) AS M;
-- error:
-- You must specify either rowtime or proctime for order by as the first one. (at line 3, column 150)
-- Hint: ORDER BY must start with the table's event-time (WATERMARK) or processing-time column
