"""MATCH_RECOGNIZE in the planner: parse the clause body, validate it with Flink's rules, type its result.

    spec = parse_match_recognize(text, line, column)
    validate(spec, input_columns, rowtime, extensions=False, proctime=None)
    output_columns(spec, input_columns) -> [(name, flink type)]

Nothing here touches Spark or prints; runtime/match_recognize executes the spec."""

from planner.match_recognize.parser import parse_match_recognize
from planner.match_recognize.spec import MatchRecognizeSpec
from planner.match_recognize.types import output_columns
from planner.match_recognize.validation import validate

__all__ = ["parse_match_recognize", "validate", "output_columns", "MatchRecognizeSpec"]
