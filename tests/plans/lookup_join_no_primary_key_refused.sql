-- A processing-time temporal join against a filesystem table of the 'connector' keys: Flink cannot look it up
-- and asks for a versioned table's primary key (its message, checked on Flink 2.3).
CREATE TABLE side2 (key BIGINT, `value` VARCHAR) WITH ('connector' = 'filesystem', 'path' = '/tmp/side.csv', 'format' = 'csv');
CREATE TABLE probe (id STRING, k BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/probe.csv', 'format' = 'csv');
SELECT B.id, S.`value` FROM (SELECT *, PROCTIME() AS p FROM probe) B JOIN side2 FOR SYSTEM_TIME AS OF B.p AS S ON B.k = S.key;
-- error:
-- Temporal Table Join requires primary key in versioned table, but no primary key can be found. (at line 5, column 75)
-- Hint: only a table declared with Flink's legacy keys ('connector.type' = 'filesystem', 'format.type' = 'csv') can be looked up FOR SYSTEM_TIME AS OF a processing time
