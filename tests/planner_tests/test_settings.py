"""SET / RESET: Flink's keys with their allowed values, any spark.* key, and the listing of `SET;`."""

import pytest

from planner.errors import DynsqlError
from planner.planner import Planner
from planner.settings import KNOWN_KEYS, Settings, parse_duration_ms


def listing(p):
    return dict(p.plan("SET").rows)


def test_defaults_are_listed():
    rows = listing(Planner())
    assert rows["execution.runtime-mode"] == "streaming"
    assert rows["sql-client.execution.result-mode"] == "table"
    assert rows["table.local-time-zone"] == "UTC"
    assert set(KNOWN_KEYS) <= set(rows)


def test_set_and_reset_one_key():
    p = Planner()
    p.plan("SET 'execution.runtime-mode' = 'BATCH'")
    assert p.settings.batch and listing(p)["execution.runtime-mode"] == "batch"
    p.plan("SET 'sql-client.execution.result-mode' = 'tableau'")
    p.plan("RESET 'execution.runtime-mode'")
    assert not p.settings.batch
    assert listing(p)["sql-client.execution.result-mode"] == "tableau"
    p.plan("RESET")
    assert listing(p)["sql-client.execution.result-mode"] == "table"


def test_spark_keys_reach_the_runtime_and_are_unset_by_reset():
    p = Planner()
    plan = p.plan("SET 'spark.sql.shuffle.partitions' = '3'")
    assert plan.spark_conf == {"spark.sql.shuffle.partitions": "3"}
    assert listing(p)["spark.sql.shuffle.partitions"] == "3"
    assert p.plan("RESET").spark_conf_unset == ["spark.sql.shuffle.partitions"]


@pytest.mark.parametrize("stmt,fragment", [
    ("SET 'execution.runtime-mode' = 'fast'", "streaming, batch"),
    ("SET 'sql-client.execution.result-mode' = 'grid'", "table, changelog, tableau"),
    ("SET 'sql-client.verbose' = 'yes'", "true, false"),
    ("SET 'table.exec.state.ttl' = 'soon'", "Invalid duration"),
    ("SET 'table.exec.state.ttl' = '5 weeks'", "unit"),
    ("SET 'table.local-time-zone' = 'Mars/Olympus'", "time zone"),
    ("SET 'table.display.max-column-width' = '0'", "positive"),
    ("SET 'state.backend.type' = 'forst'", "hashmap, rocksdb"),
    ("SET 'no.such.key' = '1'", "Unknown configuration key 'no.such.key'"),
    ("SET execution.runtime-mode", "SET 'key' = 'value'"),
])
def test_bad_settings_are_refused_with_the_allowed_values(stmt, fragment):
    with pytest.raises(DynsqlError) as info:
        Planner().plan(stmt)
    assert fragment in info.value.render()


def test_unquoted_and_other_flink_keys():
    p = Planner()
    p.plan("SET table.exec.mini-batch.enabled = true")
    p.plan("SET 'table.local-time-zone' = 'Europe/Berlin'")
    p.plan("SET 'table.exec.state.ttl' = '1 h'")
    assert listing(p)["table.exec.mini-batch.enabled"] == "true"
    assert p.settings.state_ttl_ms == 3600000


@pytest.mark.parametrize("text,ms", [("0", 0), ("500 ms", 500), ("10 s", 10000), ("5 min", 300000),
                                     ("2h", 7200000), ("1 d", 86400000)])
def test_durations(text, ms):
    assert parse_duration_ms(text) == ms


def test_settings_from_the_command_line():
    s = Settings({"execution.runtime-mode": "batch"})
    assert s.batch
    with pytest.raises(DynsqlError):
        Settings({"execution.runtime-mode": "both"})
