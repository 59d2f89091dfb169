"""The JDBC drivers Spark gets on its classpath: PostgreSQL's (Debian's `libpostgresql-jdbc-java`,
/usr/share/java/postgresql.jar, or the jars `DYNSQL_JDBC_JARS` names, separated by ':'), always when present,
since a session starts before any table is declared. `spark.jars` ships them to a cluster's executors (and a
local session's), `spark.driver.extraClassPath` puts them where java.sql.DriverManager finds them on the driver
(the sink's commits run there)."""

import os

DEFAULT_JARS = ("/usr/share/java/postgresql.jar",)


def driver_jars(environ=os.environ):
    named = [p for p in environ.get("DYNSQL_JDBC_JARS", "").split(":") if p]
    return [os.path.realpath(p) for p in (named or DEFAULT_JARS) if os.path.isfile(p)]


def classpath_conf(conf, environ=os.environ):
    """The settings that add the drivers to a session's `conf` (its own values kept, the jars appended)."""
    from ..session import appended
    jars = driver_jars(environ)
    if not jars:
        return {}
    return {"spark.jars": appended(conf, "spark.jars", ",", jars),
            "spark.driver.extraClassPath": appended(conf, "spark.driver.extraClassPath", os.pathsep, jars)}
