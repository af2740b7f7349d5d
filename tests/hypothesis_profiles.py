"""Hypothesis profiles: "ci" runs every property test with its full example count, "dev"
a tenth of it, for quick runs on a laptop.

tests/conftest.py loads the profile named by HYPOTHESIS_PROFILE, else "ci" when CI=true
and "dev" otherwise; tests/run.py sets HYPOTHESIS_PROFILE=ci when CI=true, and
``HYPOTHESIS_PROFILE=ci`` runs CI's counts locally. A test that needs more or fewer
examples than the default says how many it runs in CI with ``examples(n)``; a long one
split into shards uses ``examples_per_shard(n, shards)``.
"""

import math
import os

from hypothesis import settings

# Hypothesis's own default: what a property test without a count of its own runs in CI.
CI_EXAMPLES = 100
DEV_EXAMPLES = 10

settings.register_profile("ci", max_examples=CI_EXAMPLES, print_blob=True)
settings.register_profile("dev", max_examples=DEV_EXAMPLES)


def profile_name() -> str:
    if os.environ.get("HYPOTHESIS_PROFILE"):
        return os.environ["HYPOTHESIS_PROFILE"]
    return "ci" if os.environ.get("CI", "").lower() == "true" else "dev"


def load() -> None:
    settings.load_profile(profile_name())


def examples(in_ci: int) -> int:
    """A test's example count: ``in_ci`` under the "ci" profile, the same share of the
    loaded profile's default under any other (at least one)."""
    return max(1, in_ci * settings.default.max_examples // CI_EXAMPLES)


def examples_per_shard(in_ci: int, shards: int) -> int:
    """For a long property test split into ``shards`` tests (parametrized) that parallel
    workers share: each runs this many, together at least ``examples(in_ci)``."""
    return math.ceil(examples(in_ci) / shards)
