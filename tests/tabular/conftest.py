import pytest

from bidlab.tabular.games import make_game

SMALL = ["comm:3", "mini_hanabi", "simple_bidding:4", "mini_bridge:3"]
ALL_FAST = [
    "comm:3", "comm:5", "comm:6", "mini_hanabi", "simple_bidding:4", "simple_bidding:8",
    "simple_bidding:16", "mini_bridge:3", "mini_bridge:4", "mini_bridge:5",
]


@pytest.fixture(scope="session")
def games():
    cache = {}

    def get(spec):
        if spec not in cache:
            cache[spec] = make_game(spec)
        return cache[spec]

    return get
