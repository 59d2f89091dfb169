"""Writes flink_2_3_functions.txt: the names of Flink 2.3's built-in functions and operators that a SQL
statement can call, read from PyFlink's own JVM (run it with a Python that has apache-flink 2.3):

    /work/flink-venv/bin/python tests/functions/list_flink_functions.py

The names are the union of
- the SQL names of the planner's operator table (`FlinkSqlOperatorTable.instance(false).getOperatorList()`,
  loaded through the planner's class loader): functions (syntax FUNCTION, FUNCTION_ID, FUNCTION_STAR) and
  the expression operators (`IS DISTINCT FROM`, `BETWEEN SYMMETRIC`, `||`, `LIKE`, ...);
- the upper-case names `SHOW FUNCTIONS` lists: the built-ins of the new type inference stack, which SQL
  resolves by name (`ARRAY_APPEND`, `BTRIM`, `PRINTF`, ...); its camelCase names are the Table API's
  names of functions already in the operator table.
Left out: names starting with `$` (internal), the syntax of clauses that are no expressions (set operations,
`DESC`, `NULLS FIRST/LAST`, `IGNORE/RESPECT NULLS`, `RUNNING`, `FINAL`, `SKIP TO ...`, `AS`, `EXISTS`), and
the planner's internal operators (`DOT`, `ITEM`, `Reinterpret`, `/INT`, syntax INTERNAL)."""

import os
import sys

from pyflink.java_gateway import get_gateway
from pyflink.table import EnvironmentSettings, TableEnvironment

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flink_2_3_functions.txt")
NOT_EXPRESSIONS = {"UNION", "UNION ALL", "EXCEPT", "EXCEPT ALL", "INTERSECT", "INTERSECT ALL", "DESC",
                   "NULLS FIRST", "NULLS LAST", "IGNORE NULLS", "RESPECT NULLS", "RUNNING", "FINAL",
                   "SKIP TO FIRST", "SKIP TO LAST", "AS", "EXISTS", "DOT", "ITEM", "Reinterpret", "/INT"}


def operator_table(tenv):
    gateway = get_gateway()
    jvm = gateway.jvm
    loader = tenv._j_tenv.getPlanner().getClass().getClassLoader()
    cls = jvm.java.lang.Class.forName("org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable",
                                      True, loader)
    types = gateway.new_array(jvm.java.lang.Class, 1)
    types[0] = jvm.java.lang.Boolean.TYPE
    args = gateway.new_array(jvm.java.lang.Object, 1)
    args[0] = False
    return cls.getMethod("instance", types).invoke(None, args).getOperatorList()


def main():
    tenv = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    names = set()
    for op in operator_table(tenv):
        name, syntax = op.getName(), str(op.getSyntax())
        if name.startswith("$") or syntax == "INTERNAL" or name in NOT_EXPRESSIONS:
            continue
        names.add(name)
    with tenv.execute_sql("SHOW FUNCTIONS").collect() as rows:
        for row in rows:
            if row[0] == row[0].upper():
                names.add(row[0])
    header = [
        "# Flink 2.3's built-in functions and operators callable from SQL, one a line.",
        "# Produced by tests/functions/list_flink_functions.py (PyFlink %s): the planner's"
        % _flink_version(),
        "# FlinkSqlOperatorTable and SHOW FUNCTIONS' upper-case names (see its docstring).",
    ]
    with open(OUT, "w") as f:
        f.write("\n".join(header + sorted(names)) + "\n")
    print("%d names -> %s" % (len(names), OUT), file=sys.stderr)


def _flink_version():
    try:
        from importlib.metadata import version
        return version("apache-flink")
    except Exception:
        return "2.3"


if __name__ == "__main__":
    main()
