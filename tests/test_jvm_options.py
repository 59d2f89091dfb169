"""A user's spark.driver.extraJavaOptions (-D, --conf, spark-defaults.conf) adds to dynsql's JVM options instead
of replacing them: dynsql's are Spark's spark.driver.defaultJavaOptions, which Spark puts first. The run's
session (conftest) is started with -D spark.driver.extraJavaOptions=-Ddynsql.tests=on."""


def jvm_arguments(spark):
    bean = spark.sparkContext._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean()
    return list(bean.getInputArguments())


def test_the_users_jvm_options_add_to_dynsqls(spark):
    arguments = jvm_arguments(spark)
    assert "-Ddynsql.tests=on" in arguments
    for option in ("-Xss16m", "-Duser.timezone=UTC", "-XX:ReservedCodeCacheSize=64m"):
        assert option in arguments, arguments
    # Spark puts the defaults first: where both set a flag, the user's (later) one wins
    assert arguments.index("-Xss16m") < arguments.index("-Ddynsql.tests=on")
