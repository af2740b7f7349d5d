"""Python's cyclic garbage collector paused while one request builds a large answer.

The collector runs after every 700 new containers (tuples, lists, dicts, objects) and
now and then walks every object alive. A standings table of 16,384 players builds
hundreds of thousands of them (database rows, match records, rows, answers), none part
of a cycle, and the collections that triggers cost a third of the request. Reference
counting still frees everything as usual; the collector runs again once the request is
answered. Used by the standings views and API (docs/benchmarks.md "Standings").
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from functools import wraps


@contextmanager
def collection_paused() -> Iterator[None]:
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def gc_paused(view):
    """A view (function or method) run with the cyclic collector paused."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        with collection_paused():
            return view(*args, **kwargs)

    return wrapper
