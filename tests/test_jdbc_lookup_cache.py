"""Flink's partial lookup cache as the jdbc lookup join keeps it (runtime/connectors/lookup_cache.py), on a
clock the test moves: rows expire after write and after access, the least recently read key goes first past
max-rows, a missing key is cached unless cache-missing-key is false, and two caches over one file (two Python
workers of an executor) see each other's keys."""

from runtime.connectors.lookup_cache import LookupCache

EUR, USD, JPY = ("EUR",), ("USD",), ("JPY",)


def test_expire_after_write_and_access_and_max_rows(tmp_path):
    now = [0.0]
    cache = LookupCache(str(tmp_path / "c.sqlite"), 2, expire_after_write=10000, clock=lambda: now[0])
    cache.put_many({EUR: [{"rate": 110}], USD: []})
    assert cache.get_many([EUR, USD, JPY]) == {EUR: [{"rate": 110}], USD: []}   # USD: cached as missing
    now[0] = 9.9
    assert cache.get_many([EUR]) == {EUR: [{"rate": 110}]}
    now[0] = 10.0
    assert cache.get_many([EUR, USD]) == {}                                     # written 10 s ago
    cache.put_many({EUR: [{"rate": 120}], USD: [{"rate": 1}]})
    now[0] = 11.0
    assert cache.get_many([USD]) == {USD: [{"rate": 1}]}
    cache.put_many({JPY: [{"rate": 2}]})                                        # 3 keys: EUR read least lately
    assert cache.get_many([EUR, USD, JPY]) == {USD: [{"rate": 1}], JPY: [{"rate": 2}]}
    accessed = LookupCache(str(tmp_path / "a.sqlite"), 10, expire_after_access=5000, cache_missing_key=False,
                           clock=lambda: now[0])
    accessed.put_many({EUR: [{"rate": 110}], USD: []})
    for t in (14.0, 18.0, 22.0):                                                # read every 4 s: kept
        now[0] = t
        assert accessed.get_many([EUR, USD]) == {EUR: [{"rate": 110}]}
    now[0] = 27.5
    assert accessed.get_many([EUR]) == {}
    other = LookupCache(str(tmp_path / "a.sqlite"), 10, expire_after_access=5000, clock=lambda: now[0])
    accessed.put_many({JPY: [{"rate": 3}]})
    assert other.get_many([JPY]) == {JPY: [{"rate": 3}]}
