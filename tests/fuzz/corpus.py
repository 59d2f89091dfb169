"""The statements the fuzzer mutates, as scripts: every statement with the statements before it, which
are planned first (unmutated) so that a mutated statement meets the catalog and settings it was
written for.

Sources, read in a fixed order (the fuzzer is deterministic for a seed): the conformance cases
(`../shared/conformance/cases/*/case.sql`, `${CASE_DIR}` filled in), the SQL examples of the seed
documents (`../shared/seeds/*.txt`, each planned after the demo tables' DDL), the `tests/sql/*.sqltest`
statements and `demo_data/demo.sql`. A source that is not there (no `../shared`) is left out. This
module reads files; it does not plan anything."""

import glob
import os
import re
from dataclasses import dataclass

from planner.splitter import split

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
DEMO_SQL = os.path.join(ROOT, "demo_data", "demo.sql")
DATA_DIR = "/tmp/dynsql-fuzz-data"      # ${DATA} of the .sqltest files: never read (no Spark)

_SQL_START = re.compile(r"^\s*(SELECT|CREATE|INSERT|WITH|SET|RESET|EXPLAIN|DROP|SHOW|DESCRIBE|STOP)\b")
_PROSE = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")      # CJK text and full-width forms: the document's prose


@dataclass(frozen=True)
class Script:
    name: str
    statements: tuple      # statement texts, without their `;`
    targets: tuple         # indexes of the statements the fuzzer mutates


def load_scripts():
    """Every script of every source that exists, in a fixed order."""
    scripts = []
    demo = _demo_statements()
    for path in sorted(glob.glob(os.path.join(SHARED, "conformance", "cases", "*", "case.sql"))):
        text = _read(path).replace("${CASE_DIR}", os.path.dirname(path))
        scripts.append(_script("case:" + os.path.basename(os.path.dirname(path)), text))
    for path in sorted(glob.glob(os.path.join(SHARED, "seeds", "*.txt"))):
        for n, statement in enumerate(seed_statements(_read(path))):
            scripts.append(Script("seed:%s#%d" % (os.path.basename(path), n), demo + (statement,),
                                  (len(demo),)))
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "sql", "*.sqltest"))):
        scripts.append(_script("sqltest:" + os.path.basename(path), sqltest_sql(_read(path))))
    if demo:
        scripts.append(Script("demo.sql", demo, tuple(range(len(demo)))))
    return [s for s in scripts if s.targets]


def seed_statements(text):
    """The SQL examples of a documentation page: runs of lines from one starting with a statement
    keyword (upper case, as the pages write SQL) to a line ending with `;`, a blank line or prose."""
    out, current = [], None
    for raw in text.splitlines():
        if current is None:
            if _SQL_START.match(raw):
                current = [raw]
            else:
                continue
        elif not raw.strip() or _PROSE.search(raw):
            out.append("\n".join(current))
            current = None
            continue
        else:
            current.append(raw)
        if raw.rstrip().endswith(";"):
            out.append("\n".join(current))
            current = None
    if current:
        out.append("\n".join(current))
    return [s.strip().rstrip(";").strip() for s in out if s.strip().rstrip(";").strip()]


def sqltest_sql(text):
    """The statements of a .sqltest file's `=== sql` blocks, in order, `${DATA}` filled in."""
    lines, inside = [], False
    for raw in text.splitlines():
        m = re.match(r"^=== (\w+)", raw)
        if m:
            inside = m.group(1) == "sql"
            if inside:
                lines.append("")
            continue
        if inside:
            lines.append(raw)
    return "\n".join(lines).replace("${DATA}", DATA_DIR)


def _demo_statements():
    if not os.path.exists(DEMO_SQL):
        return ()
    text = _read(DEMO_SQL).replace("${DEMO_DIR}", os.path.dirname(DEMO_SQL))
    return tuple(s.text for s in split(text))


def _script(name, text):
    statements = tuple(s.text for s in split(text))
    return Script(name, statements, tuple(range(len(statements))))


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()
