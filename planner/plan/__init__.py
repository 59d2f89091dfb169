"""The plan: one tree of typed nodes per query, shared by EXPLAIN and the runtime.

Every node (`node.PlanNode`) has its inputs, its output fields (`fields.Field`: name, Flink type, time
attribute), and, after `planner.infer`, its changelog mode and upsert key. Expressions inside nodes are
`expr.Expr` values over the node's input fields. The runtime translates the tree node by node
(runtime/translate.py); nothing else crosses from planner to runtime."""
