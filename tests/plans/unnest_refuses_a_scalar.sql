-- UNNEST of a value that is not a collection: Flink's validation error.
CREATE TABLE n (id INT, tags ARRAY<STRING>) WITH ('connector' = 'filesystem', 'path' = '/tmp/n.json', 'format' = 'json');
SELECT id, x FROM n CROSS JOIN UNNEST(id) AS t(x);
-- error:
-- Cannot apply 'UNNEST' to arguments of type 'UNNEST(<INTEGER>)'. Supported form(s): 'UNNEST(<MULTISET>)'
