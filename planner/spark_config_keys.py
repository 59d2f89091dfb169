"""The configuration keys Spark 4.3 knows, for a hint when a `spark.*` key given to dynsql (--conf, -D, SET) looks
like a misspelling of one.

Spark itself passes an unknown `spark.*` key on without a word (spark-submit warns only of keys outside spark.*:
"Warning: Ignoring non-Spark config property: k"), so dynsql passes it on too; when the key is one edit or two away
from a key Spark has, it adds a warning naming that key. The keys are in spark_config_keys.txt: every string
constant of the form `spark.x.y` in the classes of pyspark 4.3's spark-*.jar (ConfigBuilder keys, with a few
names that are not settings, which only make the list longer). `python -m planner.spark_config_keys JARS_DIR`
writes the file again from another Spark's jars."""

import os

KEYS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "spark_config_keys.txt")

# families whose keys are free (a Hadoop key, an environment variable, a catalog's name, a resource's name)
FREE_PREFIXES = ("spark.hadoop.", "spark.executorEnv.", "spark.yarn.appMasterEnv.", "spark.kubernetes.driverEnv.",
                 "spark.sql.catalog.", "spark.driver.resource.", "spark.executor.resource.", "spark.metrics.conf.",
                 "spark.kubernetes.driver.label.", "spark.kubernetes.executor.label.",
                 "spark.kubernetes.driver.annotation.", "spark.kubernetes.executor.annotation.", "spark.dynsql.")

_KEYS = None


def known_keys():
    global _KEYS
    if _KEYS is None:
        with open(KEYS_FILE, encoding="utf-8") as f:
            _KEYS = frozenset(line.strip() for line in f if line.startswith("spark."))
    return _KEYS


def misspelling_warning(key):
    """A warning when `key` (a spark.* key) is not one Spark has but is close to one; else None."""
    import difflib
    if not key.startswith("spark.") or key.startswith(FREE_PREFIXES):
        return None
    keys = known_keys()
    if key in keys:
        return None
    close = difflib.get_close_matches(key, keys, n=1, cutoff=0.9)
    if not close:
        return None
    return ("[WARNING] Spark has no setting '%s' (it is passed to Spark, which ignores it): did you mean '%s'?"
            % (key, close[0]))


def _write(jars_dir):
    """Every `spark.x...` string constant (a CONSTANT_Utf8 entry of its own) of the classes in the spark-*.jar files
    of `jars_dir` -> KEYS_FILE."""
    import re
    import zipfile
    pattern = re.compile(rb"spark\.[A-Za-z0-9][A-Za-z0-9._\-]*")
    keys = set()
    for name in sorted(os.listdir(jars_dir)):
        if not (name.startswith("spark-") and name.endswith(".jar")):
            continue
        with zipfile.ZipFile(os.path.join(jars_dir, name)) as jar:
            for entry in jar.namelist():
                if not entry.endswith(".class"):
                    continue
                data = jar.read(entry)
                for m in pattern.finditer(data):
                    s = m.start()
                    if s >= 3 and data[s - 3] == 1 and int.from_bytes(data[s - 2:s], "big") == m.end() - s:
                        key = m.group().decode()
                        if not key.endswith(".") and key.count(".") >= 2:
                            keys.add(key)
    with open(KEYS_FILE, "w", encoding="utf-8") as f:
        f.write("\n".join(sorted(keys)) + "\n")
    return len(keys)


if __name__ == "__main__":
    import sys
    print(_write(sys.argv[1]), "keys written to", KEYS_FILE)
