"""MATCH_RECOGNIZE on Spark: one matcher core in plain Python (matcher.py), run per partition in batch
and as a stateful streaming operator. It never parses SQL text: it executes the planner's validated
MatchRecognizeSpec (planner.match_recognize).

    match_batch(df, spec, input_columns, late_rows=None) -> DataFrame       (batch.py)
    match_stream(df, spec, input_columns, rowtime) -> DataFrame (its output and __seq)  (stream.py)

Input DataFrame: the table's columns plus `__seq` (BIGINT, arrival order) and `__wm` (TIMESTAMP, the
watermark just before the row arrived, NULL if none); in streaming with `withWatermark` applied and the
end-of-input sentinel dropped right after it. Output: output_columns(spec, input_columns).

Semantics: a pattern Flink accepts runs Flink's CEP automaton (flink_automaton.py), whatever the
extensions setting, so Flink's queries give Flink's rows; a pattern only the standard allows runs the
standard's preference-ordered VM (standard_vm.py). Not done: in streaming, NEXT() in DEFINE cannot look
past the rows the watermark has released (batch sees the whole partition), and '^' no longer matches
once a key's buffer was trimmed past its first row."""


def match_batch(df, spec, input_columns, late_rows=None, partitions=None):
    from runtime.match_recognize.batch import match_batch as run
    return run(df, spec, input_columns, late_rows=late_rows, partitions=partitions)


def match_stream(df, spec, input_columns, rowtime=None, event_time_column=None):
    from runtime.match_recognize.stream import match_stream as run
    return run(df, spec, input_columns, rowtime, event_time_column=event_time_column)
