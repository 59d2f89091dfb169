"""The binder: a parsed statement (sqlglot tree, Flink dialect) -> a tree of plan nodes (planner/plan).

Names are resolved against scopes (scope.py), expressions become `Expr`s with Flink types and Flink's
function semantics on Spark (expressions.py, types.py), FROM items and SELECT blocks become nodes
(relations.py, select.py). Views and CTEs expand to subtrees; any FROM item may be any subtree."""
