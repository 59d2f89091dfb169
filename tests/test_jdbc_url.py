"""How a jdbc table's url and options become the Python connection's arguments (runtime/connectors/pg_client.py)
and Spark's JDBC options: host, port and database from PostgreSQL's JDBC url, the user and password from the
options before the url's, `connection.max-retry-timeout` as the time to connect."""

from runtime.connectors.jdbc import connection_options
from runtime.connectors.pg_client import connect_args


def test_url_and_options_to_connection_arguments():
    args = connect_args({"url": "jdbc:postgresql://db.example:5433/shop?user=url-user&ssl=false",
                         "username": "me", "password": "pw", "connection.max-retry-timeout": "5 s"})
    assert (args["host"], args["port"], args["database"], args["user"], args["password"], args["timeout"]) == \
        ("db.example", 5433, "shop", "me", "pw", 5.0)
    bare = connect_args({"url": "jdbc:postgresql://[::1]/", "username": "me"})
    assert (bare["host"], bare["port"], bare["database"], bare["timeout"], "password" in bare) == \
        ("::1", 5432, "me", 60.0, False)
    assert connect_args({"url": "jdbc:postgresql:shop?user=u&password=x"})["database"] == "shop"
    assert connection_options({"url": "jdbc:postgresql://h/db", "username": "me", "password": "pw",
                               "connection.max-retry-timeout": "2 min"}) == {
        "url": "jdbc:postgresql://h/db", "driver": "org.postgresql.Driver", "user": "me", "password": "pw",
        "connectTimeout": "120"}
