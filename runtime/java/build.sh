#!/bin/sh
# Rebuilds dynsql-hadoop.jar from src/dynsql/hadoop against pyspark's Hadoop jars, and dynsql-java-math.jar from
# src/dynsql/math (needs a JDK's javac; `make hadoop-jar`). The jars are committed: dynsql itself needs only a
# Java runtime. PYTHON: a Python with pyspark installed.
set -eu
cd "$(dirname "$0")"
jars="$(${PYTHON:-python3} -c 'import os, pyspark; print(os.path.join(os.path.dirname(pyspark.__file__), "jars"))')"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
javac --release 17 -cp "$(ls "$jars"/hadoop-client-api-*.jar)" -d "$out/hadoop" src/dynsql/hadoop/*.java
jar --create --file dynsql-hadoop.jar --date 2026-01-01T00:00:00Z -C "$out/hadoop" .
javac --release 17 -d "$out/math" src/dynsql/math/*.java
jar --create --file dynsql-java-math.jar --date 2026-01-01T00:00:00Z -C "$out/math" .
