"""demo_data/generate.py: sizes from the command line, time order per symbol, a bounded random walk."""

import csv
import importlib.util
from pathlib import Path

import pytest

GENERATE = Path(__file__).resolve().parents[1] / "demo_data" / "generate.py"


def load():
    spec = importlib.util.spec_from_file_location("generate", GENERATE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_small_data_set(tmp_path):
    gen = load()
    assert gen.main(["--ticker-rows", "1000", "--symbols", "7", "--click-rows", "300", "--users", "5",
                     "--out", str(tmp_path)]) == 0
    ticker = list(csv.reader(open(tmp_path / "ticker.csv")))
    assert len(ticker) == 1000 and len({r[0] for r in ticker}) == 7
    last = {}
    for symbol, ts, price, tax in ticker:
        if symbol in last:
            prev_ts, prev_price = last[symbol]
            assert ts > prev_ts and abs(int(price) - prev_price) <= 2
        assert int(price) >= 1 and 1 <= int(tax) <= 3
        last[symbol] = (ts, int(price))
    clicks = list(csv.reader(open(tmp_path / "clicks.csv")))
    assert len(clicks) == 300 and len({r[0] for r in clicks}) <= 5
    assert [r[1] for r in clicks] == sorted(r[1] for r in clicks)
    ddl = (tmp_path / "generated.sql").read_text()
    assert "CREATE TABLE ticker_big" in ddl and str(tmp_path / "ticker.csv") in ddl
    # the same seed gives the same data
    gen.main(["--ticker-rows", "1000", "--symbols", "7", "--click-rows", "0", "--out", str(tmp_path / "again")])
    assert (tmp_path / "again" / "ticker.csv").read_text() == (tmp_path / "ticker.csv").read_text()


def test_bad_sizes_are_refused(tmp_path):
    with pytest.raises(SystemExit):
        load().main(["--symbols", "0", "--out", str(tmp_path)])
