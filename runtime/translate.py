"""The plan on Spark: each node translated by the translator registered for its type, inputs first.

A translator is `fn(node, inputs, ctx) -> Stream`: `inputs` are its inputs' Streams, already translated;
it runs the execution choice the physical plan made for its node (`ctx.chosen(node)`, runtime/physical: Spark's
native operator or dynsql's own processor, a whole-file read, ...), never looks at a parent node and never runs
a Spark job.
A `Stream` is a DataFrame with one column per field of the node (named after it) and the hidden columns
the runtime keeps alongside:
  __seq  BIGINT     the order of the rows (arrival order at the sources; an operator's own order after it)
  __wm   TIMESTAMP  Flink's watermark just before the row arrived (a row is late when its rowtime <= __wm);
                    NULL when the row cannot be late (an event-time operator's output)
  __op   TINYINT    the row kind (0 +I, 1 -U, 2 +U, 3 -D), only in a changelog Stream
A native update-mode aggregate's Stream (`upsert_keys`) is Spark's update output instead: rows keyed by
the hidden key columns, `__visible` false for a key that left the result; only Calcs may follow it."""

from contextlib import contextmanager
from dataclasses import dataclass, field

from pyspark.sql import functions as F

from planner.errors import DynsqlError, UnsupportedError
from planner.plan.node import post_order

from .errors import from_spark

TRANSLATORS = {}
HIDDEN = ("__seq", "__wm")


def translates(*node_types):
    def register(fn):
        for t in node_types:
            TRANSLATORS[t] = fn
        return fn
    return register


@dataclass
class Stream:
    df: object
    changelog: bool = False         # rows carry __op
    upsert_keys: list = None        # a native update-mode aggregate's hidden key columns
    visible: bool = False           # (upsert) the frame has a __visible column
    # a node that runs on each micro-batch's rows (runtime/micro_batch_stage.py): `df` is the streaming frame it
    # reads, and the nodes above it are translated on each batch's frame, in this stage
    per_batch: object = None
    # (upsert) a one pass read in pieces (runtime/operators/group_pieces.py): the column holding each row's piece,
    # the step of the changelog it shows in
    steps: str = None
    # a one pass's result that the driver finishes from the rows collected (runtime/operators/
    # window_pieces_arrow.py's PiecesMerge): `df` is what Spark computes, `finished_in_driver.finish(arrow table)`
    # the node's rows; a Calc above that picks fields is added to it (`then`)
    finished_in_driver: object = None

    def columns(self, names):
        """The node's field columns, then the hidden ones this stream carries."""
        return [F.col(q(n)) for n in names] + [F.col(h) for h in self.hidden()]

    def hidden(self):
        if self.upsert_keys is not None:
            return list(self.upsert_keys) + ["__visible"] + ([self.steps] if self.steps else [])
        return list(HIDDEN) + (["__op"] if self.changelog else [])


@dataclass
class TranslateContext:
    spark: object
    streaming: bool
    ttl_ms: int = 0
    event_time: bool = False           # the plan has event-time operators: sources set Spark's watermark
    # a streaming query read in one pass (runtime/one_pass.py) with operators that drop late rows: batch frames,
    # but those operators drop the rows streaming finds late (by `__wm`), as they do in streaming
    late_rows: bool = False
    physical: object = None         # the PhysicalPlan (runtime/physical): each node's execution choice
    # the in-memory as-of lookups' versions, collected by the engine before the query runs (never while
    # translating): id(TemporalJoin) -> pyarrow Table
    versions: dict = field(default_factory=dict)
    lookup_versions: dict = field(default_factory=dict)     # id(TemporalJoin) -> the versions frame to collect
    line: int = None
    column: int = None

    def chosen(self, node):
        """The physical node of `node`: its choice, and what the nodes above it ask of it."""
        return self.physical.of(node)


def q(name):
    return "`%s`" % name.replace("`", "``")


@contextmanager
def spark_errors_in_words(position):
    """Spark's analysis errors while the frames are built, as dynsql's error at `position` (line, column)."""
    try:
        yield
    except DynsqlError:
        raise
    except Exception as e:
        raise from_spark(e, *position)


def translate(root, ctx):
    """The plan under the sink `root` -> the Stream its sink reads: the physical tree (ctx.physical) translated
    node by node, each on its physical inputs (a node the physical plan left out never runs)."""
    load_translators()
    done = {}
    for p in post_order(ctx.physical.of(root).inputs[0]):
        n = p.logical
        fn = TRANSLATORS.get(type(n))
        if fn is None:
            raise UnsupportedError("%s cannot run %s yet" % (n.explain_name(), "in streaming mode" if ctx.streaming
                                                              else "in batch mode"), *n.position)
        inputs = [done[id(c)] for c in p.inputs]
        stage = next((s.per_batch for s in inputs if s.per_batch is not None), None)
        driver = next((s.finished_in_driver for s in inputs if s.finished_in_driver is not None), None)
        with spark_errors_in_words(n.position if n.position[0] is not None else (ctx.line, ctx.column)):
            if stage is not None:      # above a per-micro-batch node (only Calcs: runtime/physical/rules.py)
                done[id(p)] = Stream(inputs[0].df, per_batch=stage.then(fn, n))
            elif driver is not None:   # above one finished in the driver (only Calcs picking fields: rules.py)
                done[id(p)] = Stream(inputs[0].df, finished_in_driver=driver.then(n))
            else:
                done[id(p)] = fn(n, inputs, ctx)
    out = done[id(ctx.physical.of(root).inputs[0])]
    if out.per_batch is not None:
        with spark_errors_in_words((ctx.line, ctx.column)):
            out.per_batch.check(out.df.schema)
    return out


_LOADED = []


def load_translators():
    """Import every operator module once: each registers its translators."""
    if _LOADED:
        return
    from .operators import OPERATOR_MODULES
    import importlib
    for name in OPERATOR_MODULES:
        importlib.import_module("runtime.operators." + name)
    _LOADED.append(True)


_SIMPLE_TYPES = {"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR", "VARCHAR",
                 "DATE", "TIMESTAMP", "TIMESTAMP_LTZ"}


def conform(df, fields):
    """Cast each field column whose Spark type differs from the Flink type the planner gave it (Spark's
    SUM of an INT is a BIGINT, its AVG a DOUBLE, its decimal arithmetic other precisions; Flink's are
    the result's types). Fields of unknown or nested types are left as Spark typed them."""
    from planner.expr.types import to_spark
    casts = {}
    schema = {f.name: f.dataType for f in df.schema.fields}
    for f in fields:
        if f.type is None or f.type.name not in _SIMPLE_TYPES or f.name not in schema:
            continue
        want = to_spark(f.type)
        if schema[f.name] != want:
            casts[f.name] = want
    if not casts:
        return df
    return df.select(*[_narrow(F.col(q(c)), schema[c], casts[c]).alias(c) if c in casts else F.col(q(c))
                       for c in df.columns])


_INTEGRAL_BITS = {"byte": 8, "short": 16, "integer": 32, "long": 64}


def _narrow(column, have, want):
    """`column` cast from Spark type `have` to `want`; a wider integer keeps its low bits, as Java narrows (a SUM of
    INTs past 2^31 wraps in Flink, where Spark's ANSI cast would fail)."""
    bits, wide = _INTEGRAL_BITS.get(want.typeName()), _INTEGRAL_BITS.get(have.typeName())
    if bits is None or wide is None or wide <= bits:
        return column.cast(want)
    shift = 64 - bits
    return F.shiftright(F.shiftleft(column.cast("long"), shift), shift).cast(want)
