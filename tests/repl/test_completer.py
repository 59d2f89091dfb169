"""SqlCompleter over a snapshot of a real planner Catalog."""

import pytest
from prompt_toolkit.document import Document

from planner.catalog import Catalog, ColumnDef, TableDef, ViewDef, WatermarkSpec
from planner.settings import KNOWN_KEYS
from repl.completer import MetadataSnapshot, SqlCompleter, quote_identifier


@pytest.fixture
def catalog():
    c = Catalog()
    c.add_table(TableDef("orders", [ColumnDef("order_id", "BIGINT"), ColumnDef("price", "DECIMAL(10, 2)"),
                                    ColumnDef("currency", "STRING"), ColumnDef("order time", "TIMESTAMP(3)")],
                         {"connector": "filesystem"},
                         watermark=WatermarkSpec("order time", "`order time` - INTERVAL '5' SECOND", 5000)))
    c.add_table(TableDef("currency_rates", [ColumnDef("currency", "STRING"), ColumnDef("rate", "DOUBLE"),
                                            ColumnDef("update_time", "TIMESTAMP(3)")], {}))
    c.add_table(TableDef("Ticker", [ColumnDef("symbol", "STRING"), ColumnDef("price", "BIGINT"),
                                    ColumnDef("rowtime", "TIMESTAMP(3)")], {}))
    c.add_view(ViewDef("big_orders", "SELECT * FROM orders WHERE price > 100",
                       columns=[("order_id", "BIGINT"), ("price", "DECIMAL(10, 2)")]))
    return c


@pytest.fixture
def completer(catalog):
    snapshot = MetadataSnapshot.from_catalog(catalog, functions=["UPPER", "COUNT", "TUMBLE", "TO_TIMESTAMP"])
    return SqlCompleter(lambda: snapshot)


def complete(completer, text):
    before, _, after = text.partition("|")
    doc = Document(before + after, len(before))
    return [(c.text, c.start_position, c.display_meta_text) for c in completer.get_completions(doc, None)]


def texts(completer, text):
    return [t for t, _, _ in complete(completer, text)]


def test_snapshot_copies_tables_views_and_columns(catalog):
    snap = MetadataSnapshot.from_catalog(catalog, functions=[])
    assert snap.tables["orders"] == ("order_id", "price", "currency", "order time")
    assert snap.tables["big_orders"] == ("order_id", "price")
    assert set(snap.set_keys) == set(KNOWN_KEYS)
    catalog.drop("TABLE", "Ticker")
    assert "Ticker" in snap.tables          # a snapshot: the shell takes a new one after a statement


def test_table_names_after_from(completer):
    assert texts(completer, "SELECT * FROM |") == ["Ticker", "big_orders", "currency_rates", "default_catalog", "orders",
                                                  "spark_catalog"]     # a catalog begins a qualified name
    assert complete(completer, "SELECT * FROM ord|") == [("orders", -3, "table"), ("big_orders", -3, "table")]
    # substring matches come after prefix matches
    assert texts(completer, "SELECT * FROM rat|") == ["currency_rates"]


def test_columns_of_the_tables_in_the_statement(completer):
    got = texts(completer, "SELECT | FROM orders o JOIN currency_rates r ON o.currency = r.currency")
    assert got[:6] == ["order_id", "price", "currency", "`order time`", "rate", "update_time"]
    assert "UPPER" in got and "SELECT" not in got[:6]


def test_columns_after_alias_dot(completer):
    assert texts(completer, "SELECT r.| FROM orders o JOIN currency_rates r ON o.currency = r.currency") == \
        ["currency", "rate", "update_time"]
    assert complete(completer, "SELECT o.pr| FROM orders o") == [("price", -2, "column")]


def test_quoted_column_name_is_completed_with_backticks(completer):
    assert complete(completer, "SELECT o.`order t| FROM orders o") == [("`order time`", -8, "column")]
    assert quote_identifier("select") == "`select`" and quote_identifier("price") == "price"


def test_window_columns_with_a_window_tvf(completer):
    got = texts(completer, "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE orders, "
                           "DESCRIPTOR(`order time`), INTERVAL '1' MINUTE)) GROUP BY window_|")
    assert got[:3] == ["window_start", "window_end", "window_time"]


def test_functions(completer):
    assert ("UPPER", -2, "function") in complete(completer, "SELECT up| FROM orders")


def test_keywords_follow_the_case_typed(completer):
    assert texts(completer, "sel|") == ["select"]
    assert texts(completer, "SEL|") == ["SELECT"]
    assert "MATCH_RECOGNIZE" in texts(completer, "SELECT * FROM Ticker MATCH|")
    assert "FOR SYSTEM_TIME AS OF" in texts(completer, "SELECT * FROM orders o JOIN currency_rates FOR|")


def test_set_keys_are_quoted(completer):
    assert ("'sql-client.execution.result-mode'", -3, "setting") in complete(completer, "SET sql|")
    assert len(texts(completer, "SET |")) == len(KNOWN_KEYS)
    assert complete(completer, "SET 'sql-client.execution.re|") == [("sql-client.execution.result-mode'", -23, "setting")]
    # the closing quote is already there
    assert texts(completer, "SET 'sql-client.execution.re|'") == ["sql-client.execution.result-mode"]


def test_set_values_of_the_key(completer):
    key = "sql-client.execution.result-mode"
    assert texts(completer, "SET '%s' = |" % key) == ["'table'", "'changelog'", "'tableau'"]
    assert texts(completer, "SET '%s' = 'ch|" % key) == ["changelog'"]
    assert texts(completer, "SET 'execution.runtime-mode' = 'b|") == ["batch'"]
    # a free-text key offers its default
    assert texts(completer, "SET 'table.local-time-zone' = |") == ["'UTC'"]


def test_nothing_in_a_string_or_comment(completer):
    assert complete(completer, "SELECT 'ord|") == []
    assert complete(completer, "SELECT 1 -- FROM ord|") == []


def test_snapshot_source_is_called_each_time(catalog):
    holder = {"snap": MetadataSnapshot.from_catalog(catalog, functions=[])}
    completer = SqlCompleter(lambda: holder["snap"])
    assert "Ticker" in texts(completer, "SELECT * FROM |")
    catalog.drop("TABLE", "Ticker")
    holder["snap"] = MetadataSnapshot.from_catalog(catalog, functions=[])
    assert "Ticker" not in texts(completer, "SELECT * FROM |")


def test_while_typing_a_menu_only_once_a_name_is_begun(completer):
    from prompt_toolkit.completion import CompleteEvent
    typing = CompleteEvent(text_inserted=True)
    tab = CompleteEvent(completion_requested=True)
    doc = Document("SELECT a,\n", len("SELECT a,\n"))
    assert list(completer.get_completions(doc, typing)) == []
    assert "UPPER" in [c.text for c in completer.get_completions(doc, tab)]
    doc = Document("SELECT * FROM o", len("SELECT * FROM o"))
    assert [c.text for c in completer.get_completions(doc, typing)][:1] == ["orders"]


def test_qualified_names_complete_part_by_part(catalog):
    from planner.catalog_store import InMemoryCatalog
    shop = InMemoryCatalog("shop", {"type": "generic_in_memory"})
    catalog.add_catalog(shop)
    shop.create_database("sales")
    catalog.add_table(TableDef("fruit", [ColumnDef("id", "INT"), ColumnDef("name", "STRING")], {}),
                      path="shop.sales.fruit")
    snapshot = MetadataSnapshot.from_catalog(catalog, functions=[])
    completer = SqlCompleter(lambda: snapshot)
    assert texts(completer, "SELECT * FROM sh|") == ["shop"]
    assert texts(completer, "SELECT * FROM shop.|") == ["`default`", "sales"]
    assert complete(completer, "SELECT * FROM shop.sales.f|") == [("fruit", -1, "table")]
    assert texts(completer, "SELECT * FROM default_catalog.default_database.Tic|") == ["Ticker"]
    assert texts(completer, "SELECT f.| FROM shop.sales.fruit AS f") == ["id", "name"]
