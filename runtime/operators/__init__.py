"""One module per operator: its translator(s) (registered with runtime.translate.translates) and, where
dynsql runs the operator itself, its keyed processor."""

#: modules imported by runtime.translate before the first translation (each registers its translators)
OPERATOR_MODULES = ["scan", "watermark", "calc", "values", "union", "group_aggregate", "join", "rank", "sort", "over_aggregate",
                    "window", "window_rank", "window_join", "match", "temporal_join", "interval_join",
                    "lookup_join", "expand", "unnest", "semi_join", "replicate_rows", "window_semi_join"]
