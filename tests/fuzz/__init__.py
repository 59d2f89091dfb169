"""The planner's fuzz harness: mutated SQL planned the way the shell plans it (see harness.py)."""
