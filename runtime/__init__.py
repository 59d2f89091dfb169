"""Plans on Spark: the session, connectors, operators, jobs and the change stream handed to the shell.

The runtime never parses SQL text."""
