"""The Nexmark event generator (runtime/connectors/nexmark_generator.py) and its file writer
(demo_data/nexmark.py), without Spark: Nexmark's proportions, ids, times, references between events,
channels and sizes; one event a pure function of its index; the command line's files."""

import collections
import csv
import json
import os
import subprocess
import sys

import pytest

from runtime.connectors import nexmark_generator as gen

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASE = gen.parse_time_ms("2024-06-14 23:59:10")


@pytest.fixture(scope="module")
def config():
    return gen.NexmarkConfig(events_num=5000, first_event_rate=20, base_time_ms=BASE)


@pytest.fixture(scope="module")
def events(config):
    return list(gen.events(config, 0, 10 ** 9))


def test_proportions_and_types_follow_the_event_id(config, events):
    assert len(events) == 5000
    kinds = collections.Counter(e[0] for e in events)
    assert kinds == {gen.PERSON: 100, gen.AUCTION: 300, gen.BID: 4600}
    for i, e in enumerate(events[:200]):
        rem = (i + 2) % 50          # event ids start at 2 (Nexmark's first event id 1 + first event number 1)
        assert e[0] == (gen.PERSON if rem < 1 else gen.AUCTION if rem < 4 else gen.BID)
        assert sum(x is not None for x in e[1:]) == 1 and e[1 + e[0]] is not None


def test_event_times_step_by_one_over_the_rate(config, events):
    times = [e[1 + e[0]][gen.BID_FIELDS.index("dateTime") if e[0] == gen.BID else 6 if e[0] == gen.PERSON else 5]
             for e in events]
    assert times[0] == BASE + 50 and times[1] == BASE + 100
    assert all(b - a == 50 for a, b in zip(times, times[1:]))
    odd = gen.NexmarkConfig(first_event_rate=3, base_time_ms=0)
    assert [gen.event_time_ms(odd, i) for i in range(4)] == [333, 666, 1000, 1333]   # truncated, not rounded


def test_persons_and_auctions_are_numbered_in_order(events):
    persons = [e[1][0] for e in events if e[0] == gen.PERSON]
    auctions = [e[2][0] for e in events if e[0] == gen.AUCTION]
    assert persons == list(range(1001, 1101))
    assert auctions == list(range(1001, 1301))


def test_bids_go_to_hot_or_recent_auctions_and_bidders_carry_nexmarks_double_offset(config, events):
    created = 0
    hot = 0
    for i, e in enumerate(events):
        if e[0] == gen.AUCTION:
            created = e[2][0]
        if e[0] != gen.BID:
            continue
        auction, bidder = e[3][0], e[3][1]
        last = gen.last_auction_id(config, i + 2)
        assert auction == (last // 100) * 100 + 1000 or last - 100 + 1000 <= auction <= last + 10 + 1000
        hot += auction == (last // 100) * 100 + 1000
        assert bidder >= 2000                      # persons' ids + 1000: Nexmark adds the first id twice
        assert created == 0 or auction <= created + 10
    assert 0.45 < hot / 4600 < 0.6                 # half the bids go to the hot auction (plus random hits)


def test_auctions_expire_after_they_start_and_sellers_are_hot_or_active(events):
    lengths = []
    for e in events:
        if e[0] == gen.AUCTION:
            a = e[2]
            assert a[6] > a[5] and a[4] >= a[3] and 10 <= a[8] <= 14
            assert 1000 <= a[7] <= 1110
            lengths.append(a[6] - a[5])
    # on average as long as Nexmark takes to create 100 auctions: 1666 events at 20 a second
    assert 60000 < sum(lengths) / len(lengths) < 110000


def test_prices_channels_and_urls(events):
    bids = [e[3] for e in events if e[0] == gen.BID]
    assert all(100 <= b[2] <= 100000000 for b in bids)
    channels = collections.Counter(b[3] for b in bids)
    assert 0.45 < sum(channels[c] for c in gen.HOT_CHANNELS) / len(bids) < 0.55
    for b in bids:
        if b[3] in gen.HOT_CHANNELS:
            assert "channel_id" not in b[4]
        elif "channel_id=" in b[4]:
            assert b[4].endswith("&channel_id=%d" % java_abs_reversed(int(b[3].split("-")[1])))
    urls = [b[4] for b in bids if "channel_id=" in b[4]]
    assert 0.35 < len(urls) / len(bids) < 0.5      # half the bids, nine channels in ten
    assert all(u.startswith("https://www.nexmark.com/") and u.split("/")[6].startswith("item.htm?query=1")
               for u in (b[4] for b in bids))
    assert [java_abs_reversed(n) for n in (1, 2, 3)] == [-2147483648, 1073741824, 1073741824]


def java_abs_reversed(n):
    """Math.abs(Integer.reverse(n)) in Java: the 32 bits reversed, signed; abs(MIN_VALUE) stays MIN_VALUE."""
    v = int("{:032b}".format(n)[::-1], 2)
    v = v - (1 << 32) if v >= 1 << 31 else v
    return v if v == -(1 << 31) else abs(v)


def test_extra_padding_brings_events_to_nexmarks_average_sizes(events):
    def mean(xs):
        return sum(xs) / len(xs)
    bids = [32 + len(e[3][6]) for e in events if e[0] == gen.BID]
    persons = [8 + sum(len(e[1][j]) for j in (1, 2, 3, 4, 5)) + len(e[1][7]) for e in events if e[0] == gen.PERSON]
    auctions = [8 + len(e[2][1]) + len(e[2][2]) + 40 + len(e[2][9]) for e in events if e[0] == gen.AUCTION]
    assert 95 < mean(bids) < 105 and 190 < mean(persons) < 210 and 480 < mean(auctions) < 520


def test_an_event_is_a_pure_function_of_its_index_and_the_settings(config, events):
    assert list(gen.events(config, 1234, 1300)) == events[1234:1300]
    assert gen.event(config, 77) == events[77]
    other = gen.NexmarkConfig(events_num=5000, first_event_rate=20, base_time_ms=BASE, seed=1)
    assert gen.event(other, 77) != events[77]
    assert gen.event(other, 77)[0] == events[77][0]          # the same kind and ids, other random values
    assert list(gen.events(config, 4990, 6000)) == events[4990:]


def test_the_command_line_writes_both_layouts(tmp_path):
    def run(out, jobs):
        subprocess.run([sys.executable, os.path.join(ROOT, "demo_data", "nexmark.py"), "--events", "3000",
                        "--rate", "100", "--base-time", "2024-06-14 23:59:10", "--jobs", str(jobs),
                        "--out", str(out)], check=True, capture_output=True)
    run(tmp_path / "one", 1)
    run(tmp_path / "two", 2)
    for name in ("nexmark.json", "person.csv", "auction.csv", "bid.csv", "nested.sql", "flat.sql",
                 "data/side_input.txt"):
        one, two = (tmp_path / d / name for d in ("one", "two"))
        assert one.exists(), name
        if name.endswith((".json", ".csv")):
            assert one.read_bytes() == two.read_bytes(), name
    lines = (tmp_path / "one" / "nexmark.json").read_text().splitlines()
    assert len(lines) == 3000
    first = json.loads(lines[0])
    assert list(first) == ["event_type", "person", "auction", "bid"] and first["event_type"] == 1
    assert first["person"] is None and first["auction"]["dateTime"] == "2024-06-14 23:59:10.010"
    assert list(first["auction"]) == list(gen.AUCTION_FIELDS)
    with open(tmp_path / "one" / "bid.csv", newline="") as f:
        bids = list(csv.reader(f))
    assert len(bids) == 2760 and all(len(b) == 7 for b in bids)
    side = (tmp_path / "one" / "data" / "side_input.txt").read_text().splitlines()
    assert side[:2] == ["0,0", "1,1"] and len(side) == 10000
