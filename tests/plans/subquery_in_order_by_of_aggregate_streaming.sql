-- A subquery in ORDER BY of a query that aggregates: batch mode sorts on it (subqueries_derived.sqltest); in
-- streaming mode Flink 2.3 sorts on a time attribute only and refuses it with these words.
CREATE TABLE a (k INT, v INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/a.json', 'format' = 'json');
CREATE TABLE c (k INT, v INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/c.json', 'format' = 'json');
SELECT k, COUNT(*) AS n FROM a GROUP BY k ORDER BY (SELECT MAX(v) FROM c WHERE c.k = a.k), k;
-- error:
-- Sort on a non-time-attribute field is not supported.
