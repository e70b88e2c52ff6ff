"""The worker's cycle collector: each collection freezes what survived it, so the next walks
only what came since; a full collection still frees a cycle that died after being frozen."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from rummy_widget.classroom.collector import (
    _freeze_survivors,
    collect_everything,
    full_collections,
    quiet_collector,
)


class Node:
    """An object that can hold itself: a cycle, which only the collector frees."""


@pytest.fixture
def collector():
    saved = gc.get_threshold()
    quiet_collector()
    yield
    gc.callbacks.remove(_freeze_survivors)
    gc.unfreeze()
    gc.set_threshold(*saved)


def frozen_cycle() -> weakref.ref:
    """A cycle alive through one young collection, then dropped: a garbage cycle, frozen."""
    node = Node()
    node.me = node
    gc.collect(0)
    assert not any(o is node for g in range(3) for o in gc.get_objects(g))  # frozen
    return weakref.ref(node)


def test_survivors_are_frozen_and_a_full_collection_frees_their_dead_cycles(collector):
    dead = frozen_cycle()
    gc.collect()  # the collector's own collections do not walk frozen objects
    assert dead() is not None
    assert collect_everything() >= 1
    assert dead() is None
    assert gc.get_freeze_count() > 0  # what survived the full collection is frozen again


def test_full_collections_run_on_their_own(collector):
    dead = frozen_cycle()

    async def until_freed() -> None:
        task = asyncio.create_task(full_collections(every=0.01))
        while dead() is not None:
            await asyncio.sleep(0.01)
        task.cancel()

    asyncio.run(asyncio.wait_for(until_freed(), timeout=10))
