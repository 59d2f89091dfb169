"""A result's rows brought to the driver as columns (name -> list of Python values), for the sinks that turn
them into changes (runtime/streaming.py) and for a batch query's table.

Through Row objects. Arrow (`DataFrame.toArrow`) was tried for the hand-off and measured no faster on the
workloads of bench/workloads_bench.py (tumble, 752 k rows out: 19.4 s with Arrow, 18.8 s with Rows; temporal
join, 1 M rows out: 37.3 s and 34.7 s): the time of a large result's hand-off is not in the transfer."""


class Columns:
    """Rows as columns: `block[name]` is the column's values, `len(block)` the number of rows."""

    def __init__(self, names, columns, size):
        self.names = names
        self._columns = dict(zip(reversed(names), reversed(columns)))   # a repeated name: its first column
        self.size = size

    def __getitem__(self, name):
        return self._columns[name]

    def __contains__(self, name):
        return name in self._columns

    def __len__(self):
        return self.size

    def tuples(self, names):
        """The rows as tuples of the `names` columns."""
        if not names:
            return [()] * self.size
        return list(zip(*(self._columns[n] for n in names)))


def collect_columns(df):
    """A DataFrame's rows -> Columns (runs the DataFrame's action once)."""
    names = df.columns
    rows = df.collect()
    return Columns(names, [[r[i] for r in rows] for i in range(len(names))], len(rows))
