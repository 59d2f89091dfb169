-- A processing-time temporal join against a changelog table (a primary key, no lookup): Flink 2.3's refusal.
CREATE TABLE ch (k BIGINT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'filesystem', 'path' = '/tmp/ch.json', 'format' = 'debezium-json');
CREATE TABLE probe (id STRING, k BIGINT) WITH ('connector' = 'filesystem', 'path' = '/tmp/probe.csv', 'format' = 'csv');
SELECT B.id, S.v FROM (SELECT *, PROCTIME() AS p FROM probe) B JOIN ch FOR SYSTEM_TIME AS OF B.p AS S ON B.k = S.k;
-- error:
-- Processing-time temporal join is not supported yet. (at line 4, column 96)
-- Hint: use the left side's event time (its WATERMARK column) in FOR SYSTEM_TIME AS OF
