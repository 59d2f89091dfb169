"""The expression and type layer: Flink's types and their inference rules, the one registry of Flink's
functions (each one's signature, return-type rule, null behaviour and translation to Spark), and the
writing of a bound expression as Spark SQL. The binder, MATCH_RECOGNIZE and the runtime all use it.

It depends on nothing else of the planner's but its errors: the binder (planner/bind), the plan's nodes
(planner/plan) and the rules (planner/rules) import it, never the other way round."""
