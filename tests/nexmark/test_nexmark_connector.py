"""The `nexmark` connector through `repl.client.Client`: Nexmark's ddl_gen.sql as written (placeholders filled,
plus 'base-time' and 'seed') generates the events of the fixtures' json file, in streaming and batch mode;
windows fire at the end of a bounded input (q7, q11 against Flink's changelogs); an unbounded table is paced;
bad options are refused with clear messages; the source's per-row watermark `__wm`."""

import datetime as dt
import json
import time

import pytest

import nexmark_sql
from test_nexmark import compare_changelogs, expected_changes, load_params, nexmark_input, stream_changes  # noqa: F401

COUNT_BY_TYPE = "SELECT event_type, COUNT(*) AS n, MIN(`dateTime`) AS first, MAX(`dateTime`) AS last " \
                "FROM datagen GROUP BY event_type"


def ddl_with(options):
    """ddl_gen.sql's table with the WITH options `options` (text) instead of its own."""
    ddl = nexmark_sql.connector_tables(load_params())[0]
    return ddl[:ddl.rindex(") WITH (")] + ") WITH ('connector' = 'nexmark', %s)" % options


def run_all(client, statements):
    for text in statements:
        for stmt in client.split(text):
            client.execute(stmt)


def rows_of(client, sql):
    return stream_changes(client.execute(client.split(sql)[0]))


def test_ddl_gen_generates_the_events_of_the_json_file(client, nexmark_input):
    from repl.client import Client
    run_all(client, nexmark_sql.connector_tables(load_params()))
    generated = rows_of(client, "SELECT * FROM datagen")
    other = Client(spark_runtime=client.spark_runtime)
    run_all(other, nexmark_sql.nested_tables(nexmark_input))
    from_file = rows_of(other, "SELECT * FROM datagen")
    assert len(generated) == 2000
    assert generated == from_file           # the same events, in the same order


def test_batch_mode_reads_the_bounded_table(client):
    run_all(client, nexmark_sql.connector_tables(load_params()))
    run_all(client, ["SET 'execution.runtime-mode' = 'batch';"])
    rows = sorted(rows_of(client, COUNT_BY_TYPE))
    # event i has id i + 2 (a person when the id is a multiple of 50, an auction for ids 1-3 modulo 50) and
    # comes (i + 1) * 50 ms after the base time: persons at i = 48, 98, ..., 1998; auctions from i = 0 to 1999
    assert rows == [("+I", ("0", "40", '"2024-06-14 23:59:12.450"', '"2024-06-15 00:00:49.950"')),
                    ("+I", ("1", "120", '"2024-06-14 23:59:10.050"', '"2024-06-15 00:00:50"')),
                    ("+I", ("2", "1840", '"2024-06-14 23:59:10.150"', '"2024-06-15 00:00:49.900"'))]


@pytest.mark.parametrize("n", [7, 11])
def test_windows_fire_at_the_end_of_the_generated_input(client, nexmark_input, n):
    """q7 (TUMBLE) and q11 (SESSION) over the connector: their last windows need the end-of-input flush."""
    run_all(client, nexmark_sql.connector_tables(load_params()))
    setup, last = nexmark_sql.query_statements(n, nexmark_input)
    run_all(client, setup)
    compare_changelogs(expected_changes("nested", n), rows_of(client, last))


def test_an_unbounded_table_is_paced_by_the_event_rate(client):
    run_all(client, ["""CREATE TABLE live (event_type INT,
        person ROW<id BIGINT, name VARCHAR, emailAddress VARCHAR, creditCard VARCHAR, city VARCHAR, state VARCHAR,
                   `dateTime` TIMESTAMP(3), extra VARCHAR>,
        auction ROW<id BIGINT, itemName VARCHAR, description VARCHAR, initialBid BIGINT, reserve BIGINT,
                    `dateTime` TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra VARCHAR>,
        bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, `dateTime` TIMESTAMP(3),
                extra VARCHAR>)
      WITH ('connector' = 'nexmark', 'first-event.rate' = '50', 'events.num' = '0');"""])
    stream = client.execute(client.split("SELECT event_type, bid.price FROM live")[0])
    started, rows = time.time(), 0
    try:
        while rows < 20 and time.time() - started < 120:
            batch = stream.poll(0.5)
            if batch is not None:
                rows += len(batch.changes)
                assert rows <= (time.time() - started + 1) * 50 + 1, "faster than 50 events a second"
    finally:
        stream.stop()
    assert rows >= 20


@pytest.mark.parametrize("option, message", [
    ("'events.num' = '-5'", "option 'events.num' must be an integer >= 0, not '-5'"),
    ("'first-event.rate' = 'fast'", "option 'first-event.rate' must be an integer >= 1, not 'fast'"),
    ("'bid.avg-size' = 'big'", "option 'bid.avg-size' must be a size such as '200b' or '1kb', not 'big'"),
    ("'max-emit-speed' = 'yes'", "option 'max-emit-speed' must be 'true' or 'false', not 'yes'"),
    ("'base-time' = 'yesterday'", "option 'base-time' must be a UTC timestamp"),
    ("'events.count' = '5'", "Unsupported options found for 'nexmark'.\n\nUnsupported options:\n\nevents.count\n"),
])
def test_bad_options_are_refused(client, option, message):
    with pytest.raises(Exception) as refused:
        run_all(client, [ddl_with(option)])
    assert message in str(refused.value)


def test_a_table_needs_nexmarks_columns(client):
    with pytest.raises(Exception) as refused:
        run_all(client, ["CREATE TABLE t (event_type INT, person STRING) WITH ('connector' = 'nexmark');"])
    assert "a nexmark table has the physical columns event_type, person, auction, bid" in str(refused.value)
    ddl = nexmark_sql.connector_tables(load_params())[0].replace("price  BIGINT", "price  DOUBLE")
    with pytest.raises(Exception) as refused:
        run_all(client, [ddl])
    assert "column 'bid' must have Nexmark's type for 'bid'" in str(refused.value)


def test_the_source_gives_flinks_watermark_before_each_event(client):
    """__wm: the previous event's time - 4 s when the rowtime is ddl_gen.sql's event time, NULL for the first
    event and for another rowtime; the sentinel ends a bounded read with END_OF_INPUT in every ROW's time."""
    import pyarrow as pa
    from planner.connectors import nexmark_rowtime_is_event_time
    from runtime.connectors import nexmark
    from runtime.connectors.filesystem import END_OF_INPUT
    from runtime.tables import source_schema
    run_all(client, nexmark_sql.connector_tables(load_params()))
    table = client.catalog.get("datagen")
    assert nexmark_rowtime_is_event_time(table)
    spec = nexmark.NexmarkSpec(nexmark.spec_json(table, True, 2, table.watermark.delay_ms))
    schema = source_schema(table).json()
    batches = [b for part in spec.partitions(1990, 2000, sentinel=True)
               for b in nexmark.arrow_batches(spec, part, schema)]
    rows = pa.Table.from_batches(batches).to_pylist()
    assert [r["__seq"] for r in rows] == list(range(1990, 2001))
    times = [(r["person"] or r["auction"] or r["bid"])["dateTime"] for r in rows]
    for before, row in zip(times, rows[1:]):
        assert row["__wm"].replace(tzinfo=None) == before.replace(tzinfo=None) - dt.timedelta(seconds=4)
    sentinel = rows[-1]
    assert sentinel["event_type"] is None
    assert {sentinel[k]["dateTime"].replace(tzinfo=None) for k in ("person", "auction", "bid")} == {END_OF_INPUT}
    first = pa.Table.from_batches(list(nexmark.arrow_batches(spec, nexmark.EventRange(0, 2), schema))).to_pylist()
    assert first[0]["__wm"] is None and first[1]["__wm"] is not None
    ddl = nexmark_sql.connector_tables(load_params())[0].replace("CREATE TABLE datagen", "CREATE TABLE bids_only")
    case = ddl[ddl.index("CASE"):ddl.index("END,") + 3]
    run_all(client, [ddl.replace(case, "bid.`dateTime`")])      # another rowtime: the source cannot know it
    assert not nexmark_rowtime_is_event_time(client.catalog.get("bids_only"))


def test_the_demo_has_nexmarks_table_and_views(client):
    """demo_data/demo.sql: `nexmark` (1,000 events: 20 persons, 60 auctions, 920 bids) and the views over it;
    the window query its comment shows gives one row per 10 s of the 50 s of bids."""
    import os
    demo = os.path.join(nexmark_sql.ROOT, "demo_data")
    with open(os.path.join(demo, "demo.sql"), encoding="utf-8") as f:
        run_all(client, [f.read().replace("${DEMO_DIR}", demo)])
    windows = rows_of(client, "SELECT MAX(price) AS maxprice, window_end FROM TABLE(TUMBLE(TABLE bid, "
                              "DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY window_start, window_end")
    assert [json.loads(cells[1]) for _, cells in sorted(windows, key=lambda c: c[1][1])] == [
        "2024-06-14 23:59:20", "2024-06-14 23:59:30", "2024-06-14 23:59:40", "2024-06-14 23:59:50",
        "2024-06-15 00:00:00"]
    run_all(client, ["SET 'execution.runtime-mode' = 'batch';"])
    persons, auctions, bids = (rows_of(client, "SELECT %s FROM %s" % q) for q in (("id", "person"), ("id", "auction"),
                                                                               ("auction", "bid")))
    assert sorted(int(cells[0]) for _, cells in persons) == list(range(1001, 1021))
    assert sorted(int(cells[0]) for _, cells in auctions) == list(range(1001, 1061))
    assert len(bids) == 920


def test_ddl_gen_as_published_starts_its_events_now(client):
    """Without 'base-time' the events start when the query starts, as Nexmark's source takes the current time."""
    ddl = nexmark_sql.split_statements(nexmark_sql.read_query("ddl_gen"))[0]
    for key, value in {"${TPS}": "1000", "${EVENTS_NUM}": "100", "${PERSON_PROPORTION}": "1",
                       "${AUCTION_PROPORTION}": "3", "${BID_PROPORTION}": "46"}.items():
        ddl = ddl.replace(key, value)
    run_all(client, [ddl, "SET 'execution.runtime-mode' = 'batch';"])
    before = utc_now()
    rows = sorted(rows_of(client, COUNT_BY_TYPE))
    assert [cells[:2] for _, cells in rows] == [("0", "2"), ("1", "6"), ("2", "92")]
    first = min(dt.datetime.fromisoformat(json.loads(cells[2])) for _, cells in rows)
    assert before - dt.timedelta(minutes=1) < first < utc_now() + dt.timedelta(seconds=1)


def utc_now():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
