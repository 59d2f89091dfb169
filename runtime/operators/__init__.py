"""One module per streaming operator of the dynamic-tables model (planner/operators.py nodes)."""
