#!/usr/bin/env python3
"""Prints, as Flink 2.3's TableResult.print() writes them (its tableau, batch mode), the rows of each query of a
.sqltest file: the expected rows of tests/sql/map_print_order.sqltest came from it. (tests/record_on_flink.py
cannot record a printed MAP or MULTISET in its order: Flink's Python collect hands a map over as a dict of a Java
HashMap, so it writes the entries sorted.)

    FLINK_PY print_on_flink.py tests/sql/map_print_order.sqltest"""

import re
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment


def queries(path):
    text = open(path, encoding="utf-8").read()
    for block in re.findall(r"^=== sql\n(.*?)(?=^=== )", text, re.S | re.M):
        sql = "\n".join(line for line in block.splitlines() if not line.startswith("--"))
        yield from (s.strip() for s in sql.split(";") if s.strip())


def main():
    env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    env.get_config().set("parallelism.default", "1")
    for statement in queries(sys.argv[1]):
        print(statement)
        env.execute_sql(statement).print()


if __name__ == "__main__":
    main()
