# dynsql: `make run` starts the shell on the demo tables, `make test` runs the suite.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: postgres demo-jdbc connect-jdbc run test test-faults test-plan test-slow test-paths conformance bench fuzz soak faults small-files exactly-once cluster-test install clean java hadoop-jar

java:
	@command -v java >/dev/null 2>&1 || { echo "dynsql needs Java 17 or 21: install a JDK (e.g. 'apt-get install openjdk-17-jre-headless') and try again." >&2; exit 1; }

$(STAMP): setup.cfg pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "dynsql needs Python 3.10 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@touch $(STAMP)

install: $(STAMP)

# rebuilds runtime/java/dynsql-hadoop.jar and dynsql-java-math.jar from their source (the jars are committed: running dynsql needs no JDK, this does)
hadoop-jar: $(STAMP)
	PYTHON=$(BIN)/python runtime/java/build.sh

# PostgreSQL and its JDBC driver (/usr/share/java/postgresql.jar), from Debian's packages where missing: the JDBC
# connector's tests start a throwaway server of their own (tests/postgres_server.py)
postgres:
	@{ command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } && \
	  test -f /usr/share/java/postgresql.jar && command -v psql >/dev/null 2>&1 || { \
	  command -v apt-get >/dev/null 2>&1 || { echo "install PostgreSQL and its JDBC driver (postgresql.jar) and try again" >&2; exit 1; }; \
	  $(if $(filter 0,$(shell id -u)),,sudo) apt-get update -q && \
	  $(if $(filter 0,$(shell id -u)),,sudo) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql libpostgresql-jdbc-java; }

run: java $(STAMP)
	$(BIN)/dynsql --demo

# a continuous GROUP BY kept in a throwaway PostgreSQL, read back with psql and a dynsql scan
demo-jdbc: java postgres $(STAMP)
	$(BIN)/python demo_data/jdbc_demo.py

# the suite, without the fault-injection tests (kill -9, a server stopped mid-job: `make test-faults`); the 25
# slowest tests are listed at the end. Python keeps its compiled modules (__pycache__) even where the environment
# says not to: Spark starts Python workers for every streaming query, and each would compile dynsql again
test: java postgres $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q tests -m 'not fault_injection and not slow' --durations=25

# exactly once under kill -9 (a filesystem sink, a jdbc upsert sink), a PostgreSQL server stopped mid-job, and a
# streaming query whose Python source runner is killed (said in words)
test-faults: java postgres $(STAMP)
	$(BIN)/python -m pytest -q tests -m fault_injection

# the planner alone (no Spark, seconds): plan fixtures (tests/plans), refusals, changelog modes, statements,
# the physical choices (tests/plans/physical)
test-plan: $(STAMP)
	$(BIN)/python -m pytest -q tests/test_plans.py tests/planner_tests

# the tests marked `slow` (a minute or more each, and the heaviest of the rest: README), left out of `make test`
test-slow: java $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q tests -m slow

# every .sqltest file and conformance case on each physical path (runtime/physical), the same rows expected:
# general (no fast path), one-pass (one pass wherever it applies), fast (every fast path, whatever the sizes)
test-paths: java $(STAMP)
	for path in general one-pass fast; do \
	  DYNSQL_PHYSICAL=$$path $(BIN)/python -m pytest -q tests/test_sql_files.py tests/test_conformance_cases.py || exit 1; \
	done

conformance: java $(STAMP)
	$(BIN)/python ../shared/conformance/run.py --dynsql $(CURDIR)/$(BIN)/dynsql

fuzz: $(STAMP)
	$(BIN)/python tests/fuzz/report.py --count $(or $(FUZZ_COUNT),50000)

# the five workloads of ../shared/perf on its three shapes (1 M rows in a file, 4 M rows in a file, 1 M rows in
# 10 files; with FLINK_PY=<a Python with apache-flink 2.3>: Flink side by side and one table of the 15 ratios
# with their aims), on a session warmed by one query (as flink_perf.py warms Flink's JVM); the 1 M-row file on
# one warmed as the shell warms its own; the latencies a user feels in the shell, then the older benchmarks
bench: java $(STAMP)
	$(BIN)/python bench/workloads_bench.py --all-shapes
	$(BIN)/python bench/workloads_bench.py --shell-warm-up --data demo_data/generated/perf-shapes/d1
	$(BIN)/python bench/latency_bench.py
	$(BIN)/python bench/dynamic_tables_bench.py
	$(BIN)/python bench/match_recognize_bench.py
	$(BIN)/python bench/prompt_bench.py
	$(BIN)/python bench/planner_bench.py
	$(BIN)/python bench/source_memory_bench.py

# an hour of files arriving in a watched directory: the driver's RSS each minute, its growth from minute 10 on
soak: java $(STAMP)
	$(BIN)/python bench/source_memory_bench.py --minutes $(or $(SOAK_MINUTES),60) --rows 200000 --skip-big

# a job meets a full disk, killed Python workers and a torn checkpoint file: each said in words, then resumed once
faults: java $(STAMP)
	$(BIN)/python bench/fault_runs.py --rows $(or $(FAULT_ROWS),300000)

# a directory of 10,000 one-row files read by dynsql (streaming, batch) next to Spark's own csv source
small-files: java $(STAMP)
	$(BIN)/python bench/small_files_bench.py --files $(or $(SMALL_FILES),10000)

# kill -9 of an INSERT INTO job's process at 20 random moments, resumed each time: rows lost / duplicated
exactly-once: java $(STAMP)
	$(BIN)/python bench/exactly_once_kill.py --rows 1000000 --kills 20

# a standalone master and a worker that cannot see the checkout, every conformance case on them; a Spark Connect
# server and a set of cases through it (needs root: unshare -m); stops what it started
cluster-test: java postgres $(STAMP)
	$(BIN)/python tests/cluster/cluster_run.py

# the jdbc connector through Spark Connect alone (part of cluster-test): a Connect server with PostgreSQL's driver
# jar, a throwaway PostgreSQL, a scan, upsert sinks and a lookup join through `dynsql --remote` (needs root);
# `cluster_run.py --jdbc-only` runs it on the standalone cluster too
connect-jdbc: java postgres $(STAMP)
	$(BIN)/python tests/cluster/cluster_run.py --jdbc-only --skip-cluster

clean:
	rm -rf $(VENV) build *.egg-info
