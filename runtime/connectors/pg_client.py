"""A Python connection to the PostgreSQL a `jdbc` table names (pg8000, pure Python): the sink's one transaction a
micro-batch, the scan's type check and the lookup join's queries by key, from the driver or from an executor's
Python worker (plain values only: it travels in a pickled function, also to a Spark Connect server). Spark's
own JDBC reader and writer still move the rows in bulk, in the executors' JVMs.

The url is PostgreSQL's JDBC url, `jdbc:postgresql://host[:port][/database][?user=..&password=..]` (the
first host of a list is used); `username` / `password` options win over the url's. `connection.max-retry-
timeout` bounds the time to connect (Flink's default 60 s), not the statements."""

import urllib.parse


def connect_args(options):
    """pg8000.connect's arguments for a table's options."""
    url = str(options["url"])
    rest = url[len("jdbc:postgresql:"):]
    query = ""
    if "?" in rest:
        rest, query = rest.split("?", 1)
    params = dict(urllib.parse.parse_qsl(query))
    host, port, database = "localhost", 5432, None
    if rest.startswith("//"):
        hostport, _, database = rest[2:].partition("/")
        hostport = hostport.split(",")[0]
        if hostport.startswith("["):                       # [ipv6]:port
            host, _, tail = hostport[1:].partition("]")
            if tail.startswith(":") and tail[1:]:
                port = int(tail[1:])
        elif ":" in hostport:
            host, p = hostport.rsplit(":", 1)
            port = int(p) if p else 5432
        elif hostport:
            host = hostport
    else:
        database = rest.lstrip("/")
    user = options.get("username") or params.get("user")
    args = {"host": host, "port": port, "user": user, "database": urllib.parse.unquote(database or "") or user,
            "application_name": "dynsql"}
    password = options.get("password") or params.get("password")
    if password is not None:
        args["password"] = password
    timeout = options.get("connection.max-retry-timeout")
    if timeout:
        from planner.settings import parse_duration_ms
        args["timeout"] = max(parse_duration_ms(timeout) / 1000.0, 1.0)
    else:
        args["timeout"] = 60.0
    return args


def connect(options):
    """A pg8000 DB-API connection (not in autocommit: `commit()` ends a transaction)."""
    import pg8000.dbapi
    conn = pg8000.dbapi.connect(**connect_args(options))
    sock = getattr(conn, "_usock", None)
    if sock is not None:           # the timeout bounds the connecting, not a long statement
        sock.settimeout(None)
    return conn


def quote_identifier(name):
    return '"%s"' % name.replace('"', '""')


def quote_table(name):
    """A `table-name` (maybe schema.table) as SQL: each part quoted unless already."""
    return ".".join(p if p.startswith('"') else quote_identifier(p) for p in name.split("."))
