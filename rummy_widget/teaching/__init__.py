"""Teaching helpers for the tutorials: self-checks (``checks``), small tables (``lessons``)
and the printable rules handout (``handout``)."""

from .handout import handout

__all__ = ["handout"]
