-- An unknown column, with its position and the columns in scope.
CREATE TABLE clicks (`user` STRING, cTime TIMESTAMP(3), url STRING, WATERMARK FOR cTime AS cTime - INTERVAL '1' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/clicks.csv', 'format' = 'csv');
SELECT usr FROM clicks;
-- error:
-- Column 'usr' not found in any table (at line 3, column 8)
-- Hint: columns in scope: user, cTime, url
