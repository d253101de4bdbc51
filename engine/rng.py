"""The deterministic generator every game draws from.

Python's `random` module does not promise the same shuffles across versions, and a game's log
must replay identically for years. So the generator is our own and fully specified:

    block(k) = HMAC-SHA256(key=seed, msg=k as 8-byte big-endian unsigned)
    each draw takes the next block, k = counter, counter += 1

`below(n)` reads a block as a 256-bit big-endian integer x and returns x % n unless x falls
in the last incomplete multiple of n (x >= 2**256 - 2**256 % n), in which case it draws again
(rejection sampling: no modulo bias). `shuffle` is Fisher-Yates from the last index down,
swapping i with below(i + 1). The seed is 32 random bytes; its commitment is SHA-256(seed) in
hex, published when the game is created; the seed itself is revealed when the game ends.
"""

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_SPACE = 1 << 256


class Rng:
    """HMAC-SHA256 counter generator. Its whole state is (seed, counter)."""

    __slots__ = ("_seed", "counter")

    def __init__(self, seed: bytes, counter: int = 0):
        if not isinstance(seed, bytes) or len(seed) < 16:
            raise ValueError("the seed must be at least 16 bytes")
        self._seed = seed
        self.counter = counter

    def _block(self) -> int:
        digest = hmac.new(self._seed, self.counter.to_bytes(8, "big"), hashlib.sha256).digest()
        self.counter += 1
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        limit = _SPACE - _SPACE % n
        while True:
            x = self._block()
            if x < limit:
                return x % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included (a die is between(1, 6))."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle in place (Fisher-Yates, from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def commitment(seed: bytes) -> str:
    """What the game publishes at creation: proof that the seed was fixed in advance."""
    return hashlib.sha256(seed).hexdigest()
