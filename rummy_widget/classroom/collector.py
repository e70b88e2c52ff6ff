"""Python's cycle collector in a busy worker: short pauses, however many tables it holds.

A young collection walks every object that is still alive since the last one. A worker
keeps each table's game, and every move adds to it (log events, actions, melds), so with
the collector's thresholds raised to 20000 a young collection walked 65-77 thousand objects,
30-67 ms of CPU with every move waiting, to find some 15 objects in cycles. Here each
collection ends by freezing what survived it (``gc.freeze``): the next one walks only what
came since, and the older generations stay empty. A cycle that becomes garbage after it
was frozen waits for a full collection (unfreeze, collect, freeze again), which
``full_collections`` runs every few minutes.
"""

from __future__ import annotations

import asyncio
import gc

#: Allocations between young collections (Python's default is 700). Each walks only what
#: was made since the last one, so its pause follows this number, not the tables held.
YOUNG = 2000

#: Seconds between full collections, which find the cycles that died after being frozen.
FULL_EVERY = 300.0


def _freeze_survivors(phase: str, info: dict) -> None:
    if phase == "stop":
        gc.freeze()


def quiet_collector() -> None:
    """Freeze what exists now and what survives each collection from here on."""
    gc.freeze()
    gc.set_threshold(YOUNG, 10, 10)
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)


def collect_everything() -> int:
    """One full collection, frozen objects included; returns the number it freed."""
    gc.unfreeze()
    return gc.collect()  # the collection's end freezes the survivors again


async def full_collections(every: float = FULL_EVERY) -> None:
    """Run ``collect_everything`` every ``every`` seconds, until cancelled."""
    while True:
        await asyncio.sleep(every)
        collect_everything()
