"""MATCH_RECOGNIZE on Spark: one matcher core in plain Python (matcher.py), run per partition in batch
(batch.py: match_batch) and as a stateful streaming operator (stream.py: match_stream).
It never parses SQL text: it executes the planner's validated MatchRecognizeSpec."""
