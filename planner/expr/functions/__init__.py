"""Flink's functions: the registry (registry.py: each function's translation to Spark and its return-type rule),
the areas whose semantics differ from Spark's (strings.py, math.py, json.py, collections.py), the return-type
rules (return_types.py) and Flink 2.3's full list of names (flink_builtins.py).

The public way to add a function at run time (a user-defined function) is `register_function` /
`unregister_function`, described in registry.py."""

from .registry import register_function, unregister_function  # noqa: F401
