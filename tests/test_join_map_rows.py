"""A regular join's state holds each side's rows as Flink 2.3's StreamingJoinOperator does: a MAP value is its
entries in their order (Flink keeps a side's rows in a MapState keyed by the row's BinaryRowData, compared byte by
byte: MAP['a', 1, 'b', 2] and MAP['b', 2, 'a', 1] are two rows). On Flink 2.3 (a debezium-json source, its row
+I (1, MAP['a', 1, 'b', 2]) then -D (1, MAP['b', 2, 'a', 1]), the right row (1, 'x') arriving after both): the
INNER join gives +I (1, 'x'), and a -D with the maps in one order leaves nothing. No Spark: the processor alone."""

from runtime.operators.join import JoinProcessor

INSERT, DELETE = 0, 3


def _joined(*left_maps_and_ops):
    processor = JoinProcessor("INNER", ["l0", "l1"], ["r0"], frozen=True)
    rows = [{"__op": op, "__side": 0, "l0": 1, "l1": m} for m, op in left_maps_and_ops]
    state = processor.apply(processor.empty(), rows + [{"__op": INSERT, "__side": 1, "r0": "x"}])
    return [row[0::2] for row in processor.result(state)]


def test_a_retraction_with_the_entries_in_another_order_retracts_nothing():
    assert _joined(({"a": 1, "b": 2}, INSERT), ({"b": 2, "a": 1}, DELETE)) == [(1, "x")]


def test_a_retraction_with_the_entries_in_the_same_order_retracts_the_row():
    assert _joined(({"a": 1, "b": 2}, INSERT), ({"a": 1, "b": 2}, DELETE)) == []
