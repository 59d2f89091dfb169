"""Write Nexmark's events to files: the nested table as json lines and the three flat tables as csv.

  python demo_data/nexmark.py --events 100000 --out /tmp/nexmark            both layouts, defaults below
  python demo_data/nexmark.py --events 2000 --rate 20 --base-time '2024-06-14 23:59:10' --out DIR --jobs 2

DIR/nexmark.json   one event a line, as Flink's json format reads the table of Nexmark's ddl_gen.sql:
                   {"event_type": 2, "person": null, "auction": null, "bid": {"auction": 1001, ...,
                   "dateTime": "2024-06-14 23:59:10.050", "extra": "..."}} (ROW fields as nested objects,
                   timestamps as 'yyyy-MM-dd HH:mm:ss.SSS', UTC)
DIR/person.csv, auction.csv, bid.csv
                   the same events split by type, one table each, in the columns of Nexmark's views
                   (ddl_views.sql), no header
DIR/data/side_input.txt
                   q13's side input (lines 'i,i' for i < 10000, as Nexmark's side_input_gen.sh writes it)
DIR/nested.sql     CREATE TABLE datagen over nexmark.json (Nexmark's columns, its computed `dateTime` and
                   watermark) and the views person, auction, bid over it (Nexmark's ddl_views.sql)
DIR/flat.sql       CREATE TABLE person, auction, bid over the csv files, `dateTime` a physical rowtime with
                   the same 4 s watermark

The events are runtime/connectors/nexmark_generator.py's: event i is a pure function of i and the settings,
so the same arguments write the same files, and --jobs N splits the index range across N processes. The
`nexmark` connector generates the same events in Spark (with 'base-time' and 'seed' set alike).
It runs no query (bench/nexmark_bench.py and tests/nexmark/ do)."""

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from runtime.connectors import nexmark_generator as gen  # noqa: E402

DEFAULT_BASE_TIME = "2024-01-01 00:00:00"
CHUNK = 20000
SIDE_INPUT_ROWS = 10000

PERSON_TYPES = ("BIGINT", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "TIMESTAMP(3)", "VARCHAR")
AUCTION_TYPES = ("BIGINT", "VARCHAR", "VARCHAR", "BIGINT", "BIGINT", "TIMESTAMP(3)", "TIMESTAMP(3)", "BIGINT",
                 "BIGINT", "VARCHAR")
BID_TYPES = ("BIGINT", "BIGINT", "BIGINT", "VARCHAR", "VARCHAR", "TIMESTAMP(3)", "VARCHAR")
LAYOUT = (("person", gen.PERSON_FIELDS, PERSON_TYPES), ("auction", gen.AUCTION_FIELDS, AUCTION_TYPES),
          ("bid", gen.BID_FIELDS, BID_TYPES))
TIME_FIELDS = {"dateTime", "expires"}


def time_text(ms):
    seconds, millis = divmod(ms, 1000)
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds)) + ".%03d" % millis


def _as_dict(fields, values):
    return {f: (time_text(v) if f in TIME_FIELDS else v) for f, v in zip(fields, values)}


def nested_line(event):
    kind, person, auction, bid = event
    return json.dumps({
        "event_type": kind,
        "person": _as_dict(gen.PERSON_FIELDS, person) if person else None,
        "auction": _as_dict(gen.AUCTION_FIELDS, auction) if auction else None,
        "bid": _as_dict(gen.BID_FIELDS, bid) if bid else None,
    }, separators=(",", ":"))


def csv_line(fields, values):
    # no field holds a comma, a quote or a line break (names, letters, '@', '_', '/', '?', '&', '=')
    return ",".join(time_text(v) if f in TIME_FIELDS else str(v) for f, v in zip(fields, values))


def render_range(config, start, end):
    """Events start..end-1 -> (json lines, [person lines, auction lines, bid lines])."""
    nested, flat = [], ([], [], [])
    for event in gen.events(config, start, end):
        nested.append(nested_line(event))
        kind = event[0]
        flat[kind].append(csv_line(LAYOUT[kind][1], event[1 + kind]))
    return nested, flat


def _render_chunk(args):
    return render_range(*args)


def write(config, out, jobs=1):
    """Write the files of both layouts into `out`; returns the number of events written."""
    os.makedirs(out, exist_ok=True)
    total = config.max_events if config.events_num else 0
    chunks = [(config, a, min(a + CHUNK, total)) for a in range(0, total, CHUNK)]
    files = [open(os.path.join(out, name), "w", encoding="utf-8", newline="\n")
             for name in ("nexmark.json", "person.csv", "auction.csv", "bid.csv")]
    try:
        if jobs > 1:
            import multiprocessing
            with multiprocessing.get_context("spawn").Pool(jobs) as pool:
                results = pool.imap(_render_chunk, chunks)
                _write_chunks(results, files)
        else:
            _write_chunks(map(_render_chunk, chunks), files)
    finally:
        for f in files:
            f.close()
    write_side_input(os.path.join(out, "data", "side_input.txt"))
    with open(os.path.join(out, "nested.sql"), "w", encoding="utf-8") as f:
        f.write(nested_ddl(os.path.join(os.path.abspath(out), "nexmark.json")) + "\n" + views_ddl() + "\n")
    with open(os.path.join(out, "flat.sql"), "w", encoding="utf-8") as f:
        f.write(flat_ddl(os.path.abspath(out)) + "\n")
    return total


def write_side_input(path, rows=SIDE_INPUT_ROWS):
    """q13's side input as Nexmark's side_input_gen.sh writes it: lines 'i,i' for i in 0..rows-1."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join("%d,%d\n" % (i, i) for i in range(rows)))


def _write_chunks(results, files):
    for nested, flat in results:
        for f, lines in zip(files, [nested] + list(flat)):
            if lines:
                f.write("\n".join(lines) + "\n")


# --- DDL over the files

def _row_type(fields, types):
    return "ROW<%s>" % ", ".join("`%s` %s" % (f, t) for f, t in zip(fields, types))


def nested_ddl(path, table="datagen", watermark_seconds=4):
    """Nexmark's datagen table (ddl_gen.sql's columns) over a json lines file."""
    rows = ",\n".join("  %s %s" % (name, _row_type(fields, types)) for name, fields, types in LAYOUT)
    return ("CREATE TABLE %s (\n  event_type INT,\n%s,\n"
            "  `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime`\n"
            "                     WHEN event_type = 1 THEN auction.`dateTime`\n"
            "                     ELSE bid.`dateTime` END,\n"
            "  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '%d' SECOND\n"
            ") WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'json');"
            % (table, rows, watermark_seconds, path))


def views_ddl(table="datagen"):
    """Nexmark's three views (ddl_views.sql) over the nested table."""
    out = []
    for kind, (name, fields, _) in enumerate(LAYOUT):
        cols = ", ".join("`dateTime`" if f == "dateTime" else "%s.%s" % (name, f) for f in fields)
        out.append("CREATE VIEW %s AS SELECT %s FROM %s WHERE event_type = %d;" % (name, cols, table, kind))
    return "\n".join(out)


def flat_ddl(directory, watermark_seconds=4, names=("person", "auction", "bid")):
    """Three tables with the views' columns over the csv files, `dateTime` their rowtime."""
    out = []
    for name, (kind, fields, types) in zip(names, LAYOUT):
        cols = ",\n".join("  `%s` %s" % (f, t) for f, t in zip(fields, types))
        out.append("CREATE TABLE %s (\n%s,\n  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '%d' SECOND\n"
                   ") WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv');"
                   % (name, cols, watermark_seconds, os.path.join(directory, kind + ".csv")))
    return "\n".join(out)


def config_from_args(args):
    person, auction, bid = (int(p) for p in args.proportions.split(":"))
    return gen.NexmarkConfig(events_num=args.events, first_event_rate=args.rate, next_event_rate=args.rate,
                             person_proportion=person, auction_proportion=auction, bid_proportion=bid,
                             base_time_ms=gen.parse_time_ms(args.base_time), seed=args.seed)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--events", type=int, required=True, help="number of events")
    p.add_argument("--out", required=True, help="directory to write into")
    p.add_argument("--rate", type=int, default=10000, help="events per second of event time (first-event.rate)")
    p.add_argument("--base-time", default=DEFAULT_BASE_TIME,
                   help="UTC time of event number 0 (the first event comes 1/rate s later)")
    p.add_argument("--proportions", default="1:3:46", help="person:auction:bid")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="processes generating ranges of events")
    args = p.parse_args(argv)
    if args.events <= 0:
        p.error("--events must be positive")
    started = time.time()
    n = write(config_from_args(args), args.out, args.jobs)
    took = time.time() - started
    print("%d events in %.1f s (%.0f events/s) -> %s" % (n, took, n / took if took else 0, args.out))


if __name__ == "__main__":
    main()
