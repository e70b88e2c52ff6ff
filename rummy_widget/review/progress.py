"""A review's progress: a tqdm bar in notebooks, or a callback for a table's progress line."""

from __future__ import annotations

from collections.abc import Callable

from ..i18n import t


class Bar:
    """The review's progress: a tqdm bar (``True``), a callback with (done, total), or none."""

    def __init__(self, progress: bool | Callable[[int, int], object], total: int, lang: str):
        self.done, self.total, self.call, self.tqdm = 0, total, None, None
        if progress is True:
            from tqdm.auto import tqdm

            self.tqdm = tqdm(total=total, desc=t("review.progress", lang), leave=False)
        elif callable(progress):
            self.call = progress

    def more(self, extra: int) -> None:
        """``extra`` steps join the total (the second looks, once they are known)."""
        self.total += extra
        if self.tqdm is not None and extra:
            self.tqdm.total = self.total
            self.tqdm.refresh()

    def step(self) -> None:
        self.done += 1
        if self.tqdm is not None:
            self.tqdm.update(1)
        elif self.call is not None:
            self.call(self.done, self.total)

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
