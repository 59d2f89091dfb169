-- Nexmark q6: an OVER ordered by a rowtime that a regular join materialized (over a Top-N's updates) is refused as Flink 2.3 refuses it.
CREATE TABLE person (id BIGINT, name STRING, `dateTime` TIMESTAMP(3), WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/nexmark.csv', 'format' = 'csv');
CREATE TABLE auction (id BIGINT, seller BIGINT, expires TIMESTAMP(3), `dateTime` TIMESTAMP(3), WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/nexmark.csv', 'format' = 'csv');
CREATE TABLE bid (auction BIGINT, bidder BIGINT, price BIGINT, `dateTime` TIMESTAMP(3), WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/nexmark.csv', 'format' = 'csv');
SELECT seller, AVG(price) OVER (PARTITION BY seller ORDER BY `dateTime` ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id, seller ORDER BY price DESC) AS rownum FROM (SELECT A.id, A.seller, B.price, B.`dateTime` FROM auction AS A, bid AS B WHERE A.id = B.auction and B.`dateTime` between A.`dateTime` and A.expires)) WHERE rownum <= 1;
-- error:
-- Non-time attribute sort is not supported for bounded OVER window. (at line 5, column 46)
