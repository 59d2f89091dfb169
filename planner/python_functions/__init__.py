"""Python user-defined functions on the planner's side: the record a CREATE FUNCTION ... LANGUAGE PYTHON keeps
(definition.py), the statements that create, drop and list them (statements.py), and how a call to one is bound
(calls.py: the binder's one hook, and LATERAL TABLE). Running them is the runtime's (runtime/python_functions)."""
