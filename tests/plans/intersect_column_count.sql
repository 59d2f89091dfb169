-- INTERSECT with inputs of different widths: refused, as Flink refuses it.
CREATE TABLE a (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/a.json', 'format' = 'json');
CREATE TABLE b (k INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/b.json', 'format' = 'json');
SELECT k, s FROM a INTERSECT SELECT k FROM b;
-- error:
-- Column count mismatch in INTERSECT: 2 and 1 columns (at line 4, column 37)
