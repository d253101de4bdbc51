"""The generator is pinned: these vectors must never change, or old games stop replaying."""

import hashlib
import hmac

import pytest

from engine.rng import Rng, commitment

SEED = bytes(range(32))


def test_fixed_vector_dice():
    rng = Rng(SEED)
    assert [rng.below(6) for _ in range(10)] == [3, 4, 5, 2, 3, 4, 5, 4, 0, 0]
    assert rng.counter == 10


def test_fixed_vector_shuffle():
    items = list(range(10))
    Rng(SEED).shuffle(items)
    assert items == [4, 0, 8, 6, 2, 3, 1, 9, 7, 5]


def test_fixed_vector_wide_draw_and_die():
    rng = Rng(b"turnpost-fixed-vector-seed-00000")
    assert rng.below(2**64) == 4965648895847479855
    assert rng.between(1, 8) == 4


def test_block_is_hmac_sha256_of_the_counter_as_documented():
    first_block = hmac.new(SEED, (0).to_bytes(8, "big"), hashlib.sha256).digest()
    assert Rng(SEED).below(2**256 - 1) == int.from_bytes(first_block, "big") % (2**256 - 1)


def test_state_is_seed_and_counter_so_a_generator_resumes_exactly():
    a = Rng(SEED)
    [a.below(100) for _ in range(7)]
    b = Rng(SEED, a.counter)
    assert [a.below(1000) for _ in range(5)] == [b.below(1000) for _ in range(5)]


def test_commitment_is_sha256_of_the_seed():
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_below_is_roughly_uniform():
    rng = Rng(SEED)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(900 < c < 1100 for c in counts), counts


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        Rng(b"short")
    with pytest.raises(ValueError):
        Rng(SEED).below(0)
