"""Batch mode over a changelog source (debezium-json): Flink's batch result is the materialized table,
final rows only; the runtime's batch path currently returns every change as if it were an insert."""

import os

import pytest

DEMO = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "demo_data")


def test_batch_select_of_a_changelog_source_gives_the_final_rows(client):
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    client.execute("""CREATE TABLE products (
      product_id STRING, product_name STRING, price DECIMAL(32, 2), update_time TIMESTAMP(3),
      PRIMARY KEY (product_id) NOT ENFORCED, WATERMARK FOR update_time AS update_time
    ) WITH ('connector' = 'filesystem', 'path' = '%s/products.json', 'format' = 'debezium-json')""" % DEMO)
    result = client.execute("SELECT product_id, product_name, CAST(price AS STRING) AS price FROM products")
    assert sorted(result.rows) == [("p_002", "basketball", "19.99")]
