"""A Spark SQL expression written as text with `{0}`, `{1}`, ... for a call's arguments: how the function
modules (functions_string.py, functions_math.py) write Flink's semantics on Spark's functions.

`spark_template("CASE WHEN {1} < 0 THEN NULL ELSE LPAD({0}, {1}, {2}) END", args)` parses the text once
(Spark's dialect), then puts a copy of each argument in its place; the calls of the text are Spark's own
(marked so that the Flink mapping leaves them alone)."""

import functools
import re

import sqlglot
from sqlglot import exp

from .operands_once import fill


@functools.lru_cache(maxsize=None)
def _parsed(text):
    sql = re.sub(r"\{(\d+)\}", r"__arg\1", text)
    tree = sqlglot.parse_one(sql, read="spark")
    for node in tree.walk():
        if isinstance(node, exp.Anonymous):
            node.meta["spark"] = True
    return tree


def spark_template(text, args):
    """The template's tree with the arguments in their places; an argument the text reads more than once is
    evaluated once (`operands_once.fill`)."""
    tree = _parsed(text).copy()
    places = []
    for node in list(tree.find_all(exp.Column)):
        m = re.fullmatch(r"__arg(\d+)", node.name)
        if m and not node.table:
            places.append((node, int(m.group(1))))
    return fill(tree, places, dict(enumerate(args)), wrap=_in_place)


def _in_place(arg):
    return exp.Paren(this=arg) if not isinstance(arg, (exp.Column, exp.Literal, exp.Paren, exp.Func)) else arg


def template(text):
    """A rewrite (args -> tree) from a template."""
    return lambda args: spark_template(text, args)
