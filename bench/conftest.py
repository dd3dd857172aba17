"""The browser benchmarks (bench_instant.py) run under pytest, with the test suite's own
fixtures: a live server, a signed-in phone in headless Chromium, a club and its games."""

from tests.conftest import (  # noqa: F401  (fixtures, found by name)
    _cache_reset,
    _language_reset,
    browser,
    club,
    make_game,
    phone,
    user,
)


def pytest_addoption(parser):
    parser.addoption("--rounds", type=int, default=10, help="timed rounds (each case once)")
    parser.addoption(
        "--renderer-prefix",
        default="",
        help="bench_engine_start: a script Chromium's renderers are started through",
    )
