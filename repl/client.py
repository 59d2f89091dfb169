"""The shell's handle on the planner and the runtime: split text into statements, plan each, run it.

Data flows one way: text -> planner (plans) -> runtime (results) -> the caller renders them."""

from planner.planner import Planner
from planner.settings import Settings
from runtime.engine import Engine
from runtime.session import SparkRuntime


class Client:
    def __init__(self, master=None, conf=None, settings=None, spark_runtime=None):
        spark_conf = {}
        for k, v in (conf or {}).items():
            if k.startswith("spark."):
                spark_conf[k] = v
        self.settings = settings or Settings({k: v for k, v in (conf or {}).items() if not k.startswith("spark.")})
        self.planner = Planner(settings=self.settings)
        self.spark_runtime = spark_runtime or SparkRuntime(master=master, conf=spark_conf)
        self.engine = Engine(self.spark_runtime, self.settings)

    @property
    def catalog(self):
        return self.planner.catalog

    def start(self):
        self.spark_runtime.start()
        return self

    def status(self):
        return self.spark_runtime.status()

    def split(self, text):
        return self.planner.split(text)

    def plan(self, statement):
        return self.planner.plan(statement)

    def execute(self, statement):
        """A Statement (or text of one statement) -> MessageResult | TableResult | ChangeStream."""
        return self.engine.execute(self.planner.plan(statement))

    def close(self):
        self.engine.shutdown()
