"""A DOUBLE or FLOAT as a key of a Java map (COLLECT's MULTISET, a MAP brought to the driver)."""

import math


class JavaFloat(float):
    """A DOUBLE or FLOAT as a java.util.HashMap keys it (COLLECT's MULTISET, a printed MAP), by Double.equals /
    Float.equals: -0.0 is not 0.0 (their bits differ), a NaN is every NaN (Python's == says the opposite of
    both). A float to everything else (Arrow, Spark, the printed text); pickled as itself, so a state kept
    between micro-batches keeps its keys apart."""
    __slots__ = ()

    def _bits(self):
        return "NaN" if math.isnan(self) else (float(self), math.copysign(1.0, self))

    def __eq__(self, other):           # to another float by Java's Double.equals, to an int as a float
        if isinstance(other, float):
            return JavaFloat._bits(self) == JavaFloat._bits(other)
        return float.__eq__(self, other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(self._bits())
