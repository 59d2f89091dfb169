"""MATCH_RECOGNIZE on Spark: one matcher core in plain Python (matcher.py), run per partition in batch
and as a stateful streaming operator. It never parses SQL text: it executes the planner's validated
MatchRecognizeSpec (planner.match_recognize).

    batch.match_batch(df, spec, input_columns, late_rows=None) -> DataFrame
    stream.match_stream(df, spec, input_columns, rowtime) -> DataFrame (its output and __seq)

The plan's Match node runs them (runtime/operators/match.py).

Input DataFrame: the table's columns plus `__seq` (BIGINT, arrival order) and `__wm` (TIMESTAMP, the
watermark just before the row arrived, NULL if none); in streaming with `withWatermark` applied and the
end-of-input sentinel dropped right after it. Output: the planner's spec.output_columns.

Semantics: a pattern Flink accepts runs Flink's CEP automaton (flink_automaton.py), whatever the
extensions setting, so Flink's queries give Flink's rows; a pattern only the standard allows runs the
standard's preference-ordered VM (standard_vm.py). Not done: in streaming, NEXT() in DEFINE cannot look
past the rows the watermark has released (batch sees the whole partition), and '^' no longer matches
once a key's buffer was trimmed past its first row."""

