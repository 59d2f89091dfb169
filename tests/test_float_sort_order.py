"""ORDER BY a DOUBLE in batch mode puts rows in Flink 2.3's order (Double.compare: -0.0 below 0.0, NaN above
every number; NULLs first ascending, last descending), which a .sqltest cannot show (its runner compares rows,
not their order). The expected lists are Flink 2.3's, recorded with tests/record_on_flink.py on the same data
(float_order.sqltest's first two queries). Spark took -0.0 and 0.0 as equal and ordered them by `id`."""

ROWS = "1,1.5\n2,NaN\n3,-0.0\n4,0.0\n5,\n6,-2.5\n7,Infinity\n8,-0.0\n9,0.0\n"


def _ids(client, tmp_path, order):
    path = tmp_path / "f.csv"
    path.write_text(ROWS)
    client.settings.set("execution.runtime-mode", "batch")
    client.execute("CREATE TEMPORARY TABLE fo (id INT, s STRING) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % path)
    try:
        result = client.execute("SELECT id FROM (SELECT id, CAST(NULLIF(s, '') AS DOUBLE) AS x FROM fo) "
                                "ORDER BY " + order)
        return [row[0] for row in result.rows]
    finally:
        client.execute("DROP TEMPORARY TABLE fo")


def test_order_by_double_desc_puts_zero_before_negative_zero(client, tmp_path):
    assert _ids(client, tmp_path, "x DESC, id") == [2, 7, 1, 4, 9, 3, 8, 6, 5]


def test_order_by_double_asc_puts_negative_zero_before_zero(client, tmp_path):
    assert _ids(client, tmp_path, "x, id") == [5, 6, 3, 8, 4, 9, 1, 7, 2]
