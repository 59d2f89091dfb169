"""Nexmark's published queries (tests/nexmark/queries/, verbatim from nexmark/nexmark) made runnable on a
generated input, the same way for Flink (flink_expected.py), dynsql (test_nexmark.py) and the benchmark.

Two table layouts:
  nested  Nexmark's own DDL (ddl_gen.sql: one table `datagen` of nested ROWs, its computed `dateTime` rowtime
          and 4 s watermark) over the generator's json lines, instead of its 'nexmark' connector, and the
          three views of ddl_views.sql over it;
  flat    three tables person, auction, bid with the views' columns over the generator's csv files,
          `dateTime` a physical rowtime with the same watermark.
A query file's statements run in order, except that the blackhole sink `nexmark_qN` is not created and
`INSERT INTO nexmark_qN <query>` becomes `<query>`: its changelog is the result. q10, whose sink is a
partitioned filesystem table, keeps its INSERT into a folder (`${NEXMARK_DIR}/data/output/${SUBMIT_TIME}`
becomes the `output` argument); its result is the rows written. Placeholders: ${NEXMARK_TABLE} -> datagen,
${FLINK_HOME} -> the data folder (q13's side input, data/side_input.txt, which demo_data/nexmark.py writes).

Plain Python (no pyspark, no pyflink): the Flink tool runs it in Flink's own virtualenv."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
QUERIES = os.path.join(HERE, "queries")
sys.path.insert(0, ROOT)

from demo_data import nexmark as nexmark_files  # noqa: E402

QUERY_NUMBERS = list(range(23))
LAYOUTS = ("nested", "flat")
INSERT_QUERIES = {10}     # run as INSERT: the result is what the sink wrote
# Flink emits q9 (the top bid per auction, ROW_NUMBER <= 1 without the row number) as an upsert stream keyed by
# the auction id: +U without -U. Applying it needs the key: a +U replaces the row with the same key.
UPSERT_KEYS = {9: (0,)}


def split_statements(text):
    """SQL text -> statements, on ';' outside quotes; '--' comments dropped."""
    out, cur, quote, i = [], [], None, 0
    while i < len(text):
        c = text[i]
        if quote:
            cur.append(c)
            if c == quote:
                quote = None
        elif c in "'`\"":
            quote = c
            cur.append(c)
        elif text.startswith("--", i):
            j = text.find("\n", i)
            i = len(text) if j < 0 else j
            continue
        elif c == ";":
            s = "".join(cur).strip()
            if s:
                out.append(s)
            cur = []
        else:
            cur.append(c)
        i += 1
    s = "".join(cur).strip()
    if s:
        out.append(s)
    return out


def read_query(name):
    with open(os.path.join(QUERIES, name + ".sql"), encoding="utf-8") as f:
        return f.read()


def nested_tables(data_dir):
    """ddl_gen.sql's CREATE TABLE with a filesystem json WITH clause, then ddl_views.sql's views."""
    ddl = split_statements(read_query("ddl_gen"))[0]
    head = ddl[:ddl.rindex(") WITH (")]
    table = head + ") WITH (\n    'connector' = 'filesystem',\n    'path' = '%s',\n    'format' = 'json'\n)" % (
        os.path.join(data_dir, "nexmark.json"))
    views = split_statements(read_query("ddl_views").replace("${NEXMARK_TABLE}", "datagen"))
    return [table] + views


def connector_tables(params):
    """ddl_gen.sql as Nexmark writes it, its placeholders filled from the fixture's params, plus dynsql's
    'base-time' and 'seed' (Nexmark's source takes the current time and unseeded random values), so that
    the `nexmark` connector generates the events of the json file; then ddl_views.sql's views."""
    ddl = split_statements(read_query("ddl_gen"))[0]
    filled = {"${TPS}": params["rate"], "${EVENTS_NUM}": params["events"], "${PERSON_PROPORTION}": 1,
              "${AUCTION_PROPORTION}": 3, "${BID_PROPORTION}": 46}
    for key, value in filled.items():
        ddl = ddl.replace(key, str(value))
    last = ddl.rindex(")")
    ddl = ddl[:last].rstrip() + ",\n    'base-time' = '%s',\n    'seed' = '%d'\n)" % (params["base_time"], params["seed"])
    views = split_statements(read_query("ddl_views").replace("${NEXMARK_TABLE}", "datagen"))
    return [ddl] + views


def flat_tables(data_dir):
    return split_statements(nexmark_files.flat_ddl(data_dir))


def table_statements(layout, data_dir):
    return nested_tables(data_dir) if layout == "nested" else flat_tables(data_dir)


def query_statements(n, data_dir, output=None):
    """Query n's statements, made runnable: (set-up statements, the statement whose result is checked)."""
    text = read_query("q%d" % n)
    text = text.replace("${NEXMARK_TABLE}", "datagen").replace("${FLINK_HOME}", data_dir)
    text = text.replace("file://${NEXMARK_DIR}/data/output/${SUBMIT_TIME}/bid/", output or "/nonexistent")
    sink = "nexmark_q%d" % n
    stmts = []
    for s in split_statements(text):
        if n not in INSERT_QUERIES and re.match(r"CREATE\s+TABLE\s+%s\b" % sink, s, re.I):
            continue
        m = re.match(r"INSERT\s+INTO\s+%s\s+" % sink, s, re.I)
        if m and n not in INSERT_QUERIES:
            s = s[m.end():]
        stmts.append(s)
    return stmts[:-1], stmts[-1]


def generator_config(params):
    """The generator settings of a fixture's params.json."""
    from runtime.connectors import nexmark_generator as gen
    return gen.NexmarkConfig(events_num=params["events"], first_event_rate=params["rate"],
                         next_event_rate=params["rate"],
                         base_time_ms=gen.parse_time_ms(params["base_time"]), seed=params["seed"])


def write_input(params, data_dir):
    nexmark_files.write(generator_config(params), data_dir)


def written_rows(folder):
    """q10: the rows a partitioned csv filesystem sink wrote under `folder`, each with its partition values
    (dt, hm, unescaped) from the folder names, as jsonl-contract values (timestamps 'YYYY-MM-DD HH:MM:SS.fff');
    hidden, in-progress and checksum files are left out."""
    import csv
    from urllib.parse import unquote
    rows = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        rel = os.path.relpath(root, folder)
        parts = dict(unquote(p).split("=", 1) for p in rel.split(os.sep) if "=" in p)
        for name in sorted(files):
            if name.startswith((".", "_")) or name.endswith((".crc", ".inprogress")):
                continue
            with open(os.path.join(root, name), encoding="utf-8", newline="") as f:
                for fields in csv.reader(f):
                    if not fields:
                        continue
                    auction, bidder, price, when, extra = fields[:5]
                    rows.append([int(auction), int(bidder), int(price), timestamp_value(when), extra,
                                 parts.get("dt"), parts.get("hm")])
    return rows


def timestamp_value(text):
    """'2024-06-14 23:59:10.15' or '2024-06-14T23:59:10.150Z' -> '2024-06-14 23:59:10.150' (the contract's form)."""
    import datetime as dt
    text = text.strip().replace("T", " ").rstrip("Z")
    day, _, clock = text.partition(" ")
    whole, _, fraction = clock.partition(".")
    micros = int((fraction + "000000")[:6]) if fraction else 0
    value = dt.datetime.fromisoformat("%s %s" % (day, whole)).replace(microsecond=micros)
    base = value.strftime("%Y-%m-%d %H:%M:%S")
    if micros == 0:
        return base
    return base + (".%03d" % (micros // 1000) if micros % 1000 == 0 else ".%06d" % micros)
