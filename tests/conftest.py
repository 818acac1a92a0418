"""Test-wide settings.

Hypothesis's per-example ``deadline`` (200 ms by default) is a wall-clock limit inside unit
tests: on the shared 2-core machines a busy moment made a correct test fail (a deal's PBN
round trip took 316 ms under load). Speed is measured in ``benchmarks/``, so no test here
runs under a deadline; a test that wants a smaller example count still sets its own
``@settings``.
"""

from hypothesis import settings

settings.register_profile("bidlab", deadline=None)
settings.load_profile("bidlab")
