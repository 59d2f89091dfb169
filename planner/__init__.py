"""SQL text to plans: statement splitting, the Flink dialect, the catalog, validation, changelog modes.

The planner never prints to the terminal and never touches Spark."""
