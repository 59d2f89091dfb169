"""Event-time temporal joins (FOR SYSTEM_TIME AS OF), SQL in, changelog out.

An order is joined with the rate that was valid at the order's time: the latest version with a version
time at or before it, unless that version was deleted. The result is insert-only; each order is
emitted once the join's watermark (the smaller of both inputs') passes it, and at the end of a bounded
input every pending order is emitted. The versioned side is a versioned view (the last row per key of
an append-only table) or a changelog table with a PRIMARY KEY and a WATERMARK."""

from collections import Counter
from datetime import datetime
from decimal import Decimal

import pytest

from planner.errors import SqlError

RATES = """\
Yen,102,2024-01-01 09:00:00
Euro,114,2024-01-01 09:00:00
USD,1,2024-01-01 09:00:00
Euro,119,2024-01-01 11:15:00
Pounds,107,2024-01-01 11:45:00
Pounds,108,2024-01-01 11:49:00
"""

ORDERS = """\
o_001,9.99,USD,2024-01-01 08:59:59
o_002,10.00,Euro,2024-01-01 10:00:00
o_003,20.50,Euro,2024-01-01 11:15:00
o_004,5.00,Pounds,2024-01-01 11:40:00
o_005,7.25,Pounds,2024-01-01 11:46:00
o_006,3.00,Yen,2024-01-01 11:50:00
o_007,8.00,Pounds,2024-01-01 12:00:00
o_008,4.00,CHF,2024-01-01 12:01:00
o_009,1.50,USD,2024-01-01 12:02:00
"""

VERSIONED_RATES = """CREATE VIEW versioned_rates AS
SELECT currency, rate, update_time
  FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY currency ORDER BY update_time DESC) AS rownum
        FROM currency_rates)
 WHERE rownum = 1"""


def create_tables(client, tmp_path, rates=RATES, orders=ORDERS, options=""):
    (tmp_path / "rates.csv").write_text(rates)
    (tmp_path / "orders.csv").write_text(orders)
    client.execute("""CREATE TABLE currency_rates (
        currency STRING, rate DECIMAL(32, 10), update_time TIMESTAMP(3),
        WATERMARK FOR update_time AS update_time
      ) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s)""" % (tmp_path / "rates.csv", options))
    client.execute("""CREATE TABLE orders (
        order_id STRING, price DECIMAL(10, 2), currency STRING, order_time TIMESTAMP(3),
        WATERMARK FOR order_time AS order_time
      ) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s)""" % (tmp_path / "orders.csv", options))
    client.execute(VERSIONED_RATES)


def changes(stream):
    """The query's changelog as (op, row) with plain values: decimals and timestamps as text."""
    def plain(v):
        if isinstance(v, Decimal):
            return format(v.normalize(), "f")
        if isinstance(v, datetime):
            return v.strftime("%H:%M:%S")
        return v
    return [(op, tuple(plain(v) for v in row)) for batch in stream for op, row in batch.changes]


def rate_of_each_order(client, join="JOIN", on="o.currency = r.currency"):
    return Counter(changes(client.execute(
        "SELECT o.order_id, r.rate, r.update_time FROM orders AS o "
        "%s versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON %s" % (join, on))))


# ---------------------------------------------------------------------------------------------- results
def test_inner_join_takes_the_rate_valid_at_each_order(client, tmp_path):
    create_tables(client, tmp_path)
    # o_001 (before USD's first rate), o_004 (before Pounds' first) and o_008 (no CHF rate) are dropped
    assert rate_of_each_order(client) == Counter([
        ("+I", ("o_002", "114", "09:00:00")),
        ("+I", ("o_003", "119", "11:15:00")),   # a version is valid from its own time on
        ("+I", ("o_005", "107", "11:45:00")),
        ("+I", ("o_006", "102", "09:00:00")),
        ("+I", ("o_007", "108", "11:49:00")),
        ("+I", ("o_009", "1", "09:00:00")),
    ])


def test_left_join_keeps_orders_without_a_rate(client, tmp_path):
    create_tables(client, tmp_path)
    assert rate_of_each_order(client, "LEFT JOIN") == Counter([
        ("+I", ("o_001", None, None)),          # before the first USD rate
        ("+I", ("o_002", "114", "09:00:00")),
        ("+I", ("o_003", "119", "11:15:00")),
        ("+I", ("o_004", None, None)),          # before the first Pounds rate
        ("+I", ("o_005", "107", "11:45:00")),
        ("+I", ("o_006", "102", "09:00:00")),
        ("+I", ("o_007", "108", "11:49:00")),
        ("+I", ("o_008", None, None)),          # no CHF rate at all
        ("+I", ("o_009", "1", "09:00:00")),
    ])


def test_the_version_changes_between_orders_of_one_key(client, tmp_path):
    rates = "Euro,1.10,2024-01-01 10:00:00\nEuro,1.20,2024-01-01 11:00:00\nEuro,1.30,2024-01-01 12:00:00\n"
    orders = ("a,1,Euro,2024-01-01 09:59:59\nb,1,Euro,2024-01-01 10:00:00\nc,1,Euro,2024-01-01 10:59:59\n"
              "d,1,Euro,2024-01-01 11:00:00\ne,1,Euro,2024-01-01 13:00:00\n")
    create_tables(client, tmp_path, rates, orders)
    assert rate_of_each_order(client, "LEFT JOIN") == Counter([
        ("+I", ("a", None, None)),
        ("+I", ("b", "1.1", "10:00:00")),
        ("+I", ("c", "1.1", "10:00:00")),
        ("+I", ("d", "1.2", "11:00:00")),
        ("+I", ("e", "1.3", "12:00:00")),
    ])


def test_the_rest_of_the_on_condition_filters_the_version(client, tmp_path):
    create_tables(client, tmp_path)
    # LEFT JOIN: an order whose version fails the condition keeps NULLs; INNER JOIN drops it
    left = rate_of_each_order(client, "LEFT JOIN", "o.currency = r.currency AND r.rate > 105")
    assert left == Counter([
        ("+I", ("o_001", None, None)), ("+I", ("o_002", "114", "09:00:00")), ("+I", ("o_003", "119", "11:15:00")),
        ("+I", ("o_004", None, None)), ("+I", ("o_005", "107", "11:45:00")), ("+I", ("o_006", None, None)),
        ("+I", ("o_007", "108", "11:49:00")), ("+I", ("o_008", None, None)), ("+I", ("o_009", None, None)),
    ])
    inner = rate_of_each_order(client, "JOIN", "o.currency = r.currency AND r.rate > 105")
    assert inner == Counter(c for c in left if c[1][1] is not None)


def test_select_star_names_a_second_column_like_flink(client, tmp_path):
    create_tables(client, tmp_path)
    stream = client.execute("SELECT * FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                            "ON o.currency = r.currency WHERE o.order_id = 'o_002'")
    assert [c.name for c in stream.columns] == ["order_id", "price", "currency", "order_time",
                                                "currency0", "rate", "update_time"]
    assert changes(stream) == [("+I", ("o_002", "10", "Euro", "10:00:00", "Euro", "114", "09:00:00"))]


PRODUCTS = "\n".join([
    '{"before":null,"after":{"id":"p1","name":"scooter","price":11.11,"t":"2024-01-01 00:01:00"},"op":"c"}',
    '{"before":{"id":"p1","name":"scooter","price":11.11,"t":"2024-01-01 12:00:00"},'
    '"after":{"id":"p1","name":"scooter","price":12.99,"t":"2024-01-01 12:00:00"},"op":"u"}',
    '{"before":{"id":"p1","name":"scooter","price":12.99,"t":"2024-01-01 18:00:00"},"after":null,"op":"d"}',
    '{"before":null,"after":{"id":"p1","name":"scooter","price":9.99,"t":"2024-01-01 20:00:00"},"op":"c"}',
]) + "\n"


def create_products(client, tmp_path, options=""):
    (tmp_path / "products.json").write_text(PRODUCTS)
    (tmp_path / "buys.csv").write_text("b1,p1,2024-01-01 10:00:00\nb2,p1,2024-01-01 12:00:00\n"
                                       "b3,p1,2024-01-01 19:00:00\nb4,p1,2024-01-01 21:00:00\n")
    client.execute("""CREATE TABLE products (id STRING, name STRING, price DECIMAL(10, 2), t TIMESTAMP(3),
        PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR t AS t
      ) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'debezium-json'%s)"""
                   % (tmp_path / "products.json", options))
    client.execute("""CREATE TABLE buys (buy_id STRING, id STRING, buy_time TIMESTAMP(3),
        WATERMARK FOR buy_time AS buy_time
      ) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv'%s)""" % (tmp_path / "buys.csv", options))


def test_a_delete_ends_the_version_of_a_changelog_table(client, tmp_path):
    create_products(client, tmp_path)
    query = ("SELECT b.buy_id, p.price FROM buys AS b %s products FOR SYSTEM_TIME AS OF b.buy_time AS p "
             "ON b.id = p.id")
    assert Counter(changes(client.execute(query % "LEFT JOIN"))) == Counter([
        ("+I", ("b1", "11.11")),
        ("+I", ("b2", "12.99")),     # the update at 12:00 is valid from 12:00 on
        ("+I", ("b3", None)),        # deleted at 18:00
        ("+I", ("b4", "9.99")),      # inserted again at 20:00
    ])
    assert Counter(changes(client.execute(query % "JOIN"))) == Counter([
        ("+I", ("b1", "11.11")), ("+I", ("b2", "12.99")), ("+I", ("b4", "9.99"))])


def test_an_out_of_order_order_is_still_joined(client, tmp_path):
    # one row per micro-batch: o_late arrives after the join's watermark reached 12:00 (the orders' 12:00,
    # the rates' 13:00): a temporal join does not drop it, it joins it with the version valid at 11:30
    orders = ("o_1,1,Euro,2024-01-01 10:00:00\no_2,1,Euro,2024-01-01 12:00:00\n"
              "o_late,1,Euro,2024-01-01 11:30:00\n")
    rates = "Euro,114,2024-01-01 09:00:00\nYen,102,2024-01-01 13:00:00\n"
    create_tables(client, tmp_path, rates, orders, ", 'scan.rows-per-batch' = '1'")
    assert rate_of_each_order(client) == Counter([
        ("+I", ("o_1", "114", "09:00:00")), ("+I", ("o_2", "114", "09:00:00")),
        ("+I", ("o_late", "114", "09:00:00"))])


def test_a_rate_older_than_the_newest_of_its_key_is_ignored_by_the_versioned_view(client, tmp_path):
    # the view keeps the last row by update_time: the 10:00 rate arriving after the 11:00 one never
    # becomes a version (Flink's deduplication drops it), so the 10:30 order gets the 09:00 rate
    rates = "Euro,114,2024-01-01 09:00:00\nEuro,119,2024-01-01 11:00:00\nEuro,115,2024-01-01 10:00:00\n"
    orders = "o_1,1,Euro,2024-01-01 10:30:00\no_2,1,Euro,2024-01-01 11:30:00\n"
    create_tables(client, tmp_path, rates, orders)
    assert rate_of_each_order(client) == Counter([
        ("+I", ("o_1", "114", "09:00:00")), ("+I", ("o_2", "119", "11:00:00"))])


@pytest.mark.slow       # 18 s here: `make test-slow` (make test within 25 min on a slow CI machine)
def test_the_result_does_not_depend_on_micro_batch_sizes(client, tmp_path):
    create_tables(client, tmp_path)
    whole = rate_of_each_order(client, "LEFT JOIN")
    client.execute("DROP VIEW versioned_rates")
    client.execute("DROP TABLE orders")
    client.execute("DROP TABLE currency_rates")
    create_tables(client, tmp_path, options=", 'scan.rows-per-batch' = '2'")
    assert rate_of_each_order(client, "LEFT JOIN") == whole
    assert len(whole) == 9


def test_explain_shows_an_insert_only_temporal_join(client, tmp_path):
    create_tables(client, tmp_path)
    result = client.execute("EXPLAIN CHANGELOG_MODE SELECT o.order_id, r.rate FROM orders AS o LEFT JOIN "
                            "versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r ON o.currency = r.currency")
    text = result.text
    assert "TemporalJoin(joinType=[LeftOuterJoin], where=[AND(=(currency, currency0), __TEMPORAL_JOIN_CONDITION(" \
           "order_time, update_time, __TEMPORAL_JOIN_CONDITION_PRIMARY_KEY(currency0)" in text
    line = next(ln for ln in text.splitlines() if "TemporalJoin(" in ln)
    assert line.endswith("changelogMode=[I])")
    assert "Deduplicate(keep=[LastRow], key=[currency], order=[ROWTIME], changelogMode=[I,UA,D])" in text


def final_rows(stream):
    """The changelog applied in order: the result's final rows."""
    rows = Counter()
    for op, row in changes(stream):
        rows[row] += 1 if op in ("+I", "+U") else -1
    return +rows


def test_an_aggregate_over_a_temporal_join_updates_its_result(client, tmp_path):
    create_tables(client, tmp_path)
    stream = client.execute("SELECT r.currency, COUNT(*) AS n FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME "
                            "AS OF o.order_time AS r ON o.currency = r.currency GROUP BY r.currency")
    assert final_rows(stream) == Counter([("Euro", 2), ("Pounds", 2), ("Yen", 1), ("USD", 1)])


# ---------------------------------------------------------------------------------------------- refusals
def refusal(client, sql):
    with pytest.raises(SqlError) as err:
        client.execute(sql)
    return err.value


def test_processing_time_is_refused(client, tmp_path):
    create_tables(client, tmp_path)
    client.execute("CREATE TABLE clicks (currency STRING, pt AS PROCTIME()) WITH ('connector' = 'filesystem', "
                   "'path' = '%s', 'format' = 'csv')" % (tmp_path / "orders.csv"))
    err = refusal(client, "SELECT * FROM clicks AS c\nJOIN versioned_rates FOR SYSTEM_TIME AS OF c.pt AS r "
                          "ON c.currency = r.currency")
    assert err.message == "Processing-time temporal join is not supported yet."
    assert (err.line, err.column) == (2, 46)


def test_as_of_a_column_that_is_not_the_left_rowtime_is_refused(client, tmp_path):
    create_tables(client, tmp_path)
    err = refusal(client, "SELECT * FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.price AS r "
                          "ON o.currency = r.currency")
    assert "only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field" in err.message


def test_a_versioned_table_needs_a_primary_key(client, tmp_path):
    create_tables(client, tmp_path)
    err = refusal(client, "SELECT * FROM orders AS o JOIN currency_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON o.currency = r.currency")
    assert err.message.startswith("Temporal Table Join requires primary key in versioned table")
    assert "PRIMARY KEY" in err.hint


def test_a_view_that_is_not_a_deduplication_is_not_versioned(client, tmp_path):
    create_tables(client, tmp_path)
    client.execute("CREATE VIEW all_rates AS SELECT currency, rate, update_time FROM currency_rates")
    err = refusal(client, "SELECT * FROM orders AS o JOIN all_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON o.currency = r.currency")
    assert err.message.startswith("Temporal Table Join requires primary key in versioned table")
    assert "ROW_NUMBER() OVER" in err.hint


def test_a_versioned_view_keeps_the_last_row(client, tmp_path):
    create_tables(client, tmp_path)
    client.execute("CREATE VIEW first_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() "
                   "OVER (PARTITION BY currency ORDER BY update_time ASC) AS rn FROM currency_rates) WHERE rn = 1")
    err = refusal(client, "SELECT * FROM orders AS o JOIN first_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON o.currency = r.currency")
    assert "ORDER BY update_time DESC" in err.message


def test_a_filter_over_a_versioned_view_retracts_the_versions_it_drops(client, tmp_path):
    # Flink 2.3 accepts the filter: the deduplication's -U of the replaced rate reaches the join and retracts
    # that rate's version (o_002's Euro 114 and o_005's Pounds 107 are gone); USD never passes it
    create_tables(client, tmp_path)
    client.execute("CREATE VIEW some_rates AS SELECT currency, rate, update_time FROM (SELECT *, ROW_NUMBER() "
                   "OVER (PARTITION BY currency ORDER BY update_time DESC) AS rn FROM currency_rates) "
                   "WHERE rn = 1 AND rate > 100")
    stream = client.execute("SELECT o.order_id, r.rate FROM orders AS o LEFT JOIN some_rates FOR SYSTEM_TIME AS OF "
                            "o.order_time AS r ON o.currency = r.currency")
    assert Counter(changes(stream)) == Counter([
        ("+I", ("o_001", None)), ("+I", ("o_002", None)), ("+I", ("o_003", "119")), ("+I", ("o_004", None)),
        ("+I", ("o_005", None)), ("+I", ("o_006", "102")), ("+I", ("o_007", "108")), ("+I", ("o_008", None)),
        ("+I", ("o_009", None))])


def test_a_filter_over_a_changelog_source_is_refused(client, tmp_path):
    create_products(client, tmp_path)
    client.execute("CREATE VIEW cheap AS SELECT id, price, t FROM products WHERE price < 12")
    err = refusal(client, "SELECT b.buy_id, p.price FROM buys AS b JOIN cheap FOR SYSTEM_TIME AS OF b.buy_time AS p "
                          "ON b.id = p.id")
    assert err.message == ("Filter is not allowed for right changelog input of event time temporal join, it will "
                           "corrupt the versioning of data. Please consider removing the filter before joining.")


def test_a_versioned_table_needs_a_rowtime(client, tmp_path):
    create_tables(client, tmp_path)
    client.execute("CREATE TABLE rates_pk (currency STRING, rate DECIMAL(32, 10), PRIMARY KEY (currency) NOT ENFORCED)"
                   " WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')" % (tmp_path / "rates.csv"))
    err = refusal(client, "SELECT * FROM orders AS o JOIN rates_pk FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON o.currency = r.currency")
    assert err.message == ("Event-Time Temporal Table Join requires both primary key and row time attribute in "
                           "versioned table, but no row time attribute can be found.")


def test_the_condition_must_cover_the_primary_key(client, tmp_path):
    create_tables(client, tmp_path)
    err = refusal(client, "SELECT * FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON o.price = r.rate")
    assert err.message == ("Temporal table's primary key [currency] must be included in the equivalence condition of "
                           "temporal join, but current temporal join condition is [o.price = r.rate].")
    err = refusal(client, "SELECT * FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON r.rate > 1")
    assert err.message == "Currently the join key in Temporal Table Join can not be empty."


@pytest.mark.parametrize("side", ["RIGHT", "FULL"])
def test_only_inner_and_left_joins(client, tmp_path, side):
    create_tables(client, tmp_path)
    err = refusal(client, "SELECT * FROM orders AS o %s JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON o.currency = r.currency" % side)
    assert err.message == ("Temporal table join currently only support INNER JOIN and LEFT JOIN, but was %s JOIN."
                           % side)


def test_batch_mode_refuses_a_temporal_join_as_flink_does(client, tmp_path):
    create_tables(client, tmp_path)
    client.execute("SET 'execution.runtime-mode' = 'batch'")
    err = refusal(client, "SELECT * FROM orders AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON o.currency = r.currency")
    assert err.message.startswith("Temporal joins (FOR SYSTEM_TIME AS OF) on regular tables are not supported in "
                                  "batch mode")


def test_both_rowtimes_must_have_the_same_type(client, tmp_path):
    create_tables(client, tmp_path)
    client.execute("CREATE TABLE orders_ltz (order_id STRING, currency STRING, order_time TIMESTAMP_LTZ(3), "
                   "WATERMARK FOR order_time AS order_time) WITH ('connector' = 'filesystem', 'path' = '%s', "
                   "'format' = 'csv')" % (tmp_path / "orders.csv"))
    err = refusal(client, "SELECT * FROM orders_ltz AS o JOIN versioned_rates FOR SYSTEM_TIME AS OF o.order_time AS r "
                          "ON o.currency = r.currency")
    assert err.message == ("Event-Time Temporal Table Join requires same rowtime type in left table and versioned "
                           "table, but the rowtime types are TIMESTAMP_LTZ(3) *ROWTIME* and TIMESTAMP(3) *ROWTIME*.")



def test_the_probe_side_may_be_a_view_that_filters_and_projects_a_table(client, tmp_path):
    create_tables(client, tmp_path)
    client.execute("CREATE VIEW big_orders AS SELECT order_id AS id, currency, order_time FROM orders "
                   "WHERE price >= 5")
    stream = client.execute("SELECT b.id, r.rate FROM big_orders AS b LEFT JOIN versioned_rates "
                            "FOR SYSTEM_TIME AS OF b.order_time AS r ON b.currency = r.currency")
    assert Counter(changes(stream)) == Counter([
        ("+I", ("o_001", None)), ("+I", ("o_002", "114")), ("+I", ("o_003", "119")), ("+I", ("o_004", None)),
        ("+I", ("o_005", "107")), ("+I", ("o_007", "108"))])
