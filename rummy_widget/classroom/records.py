"""The teacher's records of a room, read from the store: results, standings and CSV rows.

Lower penalty points are better in Traditional Rummy, so the standings sort by them. The
CSV has one row per seat per finished deal, with the columns of ``CSV_COLUMNS``: the room,
the table and deal (numbered from 0, as the API numbers them), the seat (from 0, as in
the table's view), the name at that seat, who played it (``human``, ``bot`` or ``replaced``), the
penalty points of that deal, and whether that seat went out (``winner``) and went Rummy.
A text cell that a spreadsheet would read as a formula starts with ``'`` (``spreadsheet_safe``).
"""

from __future__ import annotations

import csv
import io
from collections import Counter

from .store import Store

CSV_COLUMNS = ("room", "table", "deal", "seat", "name", "control", "penalty", "winner", "rummy")


def results(store: Store, room: str) -> list[dict]:
    """One record per seat per finished deal."""
    rows = []
    for tbl, deal, _, result in store.deals(room):
        if result is None:
            continue
        for seat, name in enumerate(result["names"]):
            rows.append(
                {
                    "room": room,
                    "table": tbl,
                    "deal": deal,
                    "seat": seat,
                    "name": name,
                    "control": result["controls"][seat],
                    "penalty": result["penalties"][seat],
                    "winner": result["winner"] == seat,
                    "rummy": bool(result["rummy"]) and result["winner"] == seat,
                }
            )
    return rows


def standings(rows: list[dict]) -> list[dict]:
    """Each seat's deals, wins and penalty points over the deals played, best first.

    A seat is the identity: the learner who holds it keeps it (their token takes it back),
    so two learners who share a name stay two entries. ``same_name`` marks an entry whose
    name another seat of the room also has; the board then shows its table with the name.
    """
    table: dict[tuple[int, int], dict] = {}
    for row in rows:
        entry = table.setdefault(
            (row["table"], row["seat"]),
            {
                "name": row["name"],
                "table": row["table"],
                "seat": row["seat"],
                "deals": 0,
                "wins": 0,
                "penalty": 0,
            },
        )
        entry["deals"] += 1
        entry["wins"] += row["winner"]
        entry["penalty"] += row["penalty"]
    names = Counter(entry["name"] for entry in table.values())
    for entry in table.values():
        entry["same_name"] = names[entry["name"]] > 1
    return sorted(
        table.values(),
        key=lambda e: (e["penalty"] / e["deals"], -e["wins"], e["name"], e["table"], e["seat"]),
    )


#: What a spreadsheet reads as the start of a formula (OWASP, "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A text cell a spreadsheet would run as a formula, as text: a ``'`` before it (a
    learner named ``=HYPERLINK(...)`` stays a name). Numbers and booleans stay as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def to_csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: spreadsheet_safe(v) for k, v in row.items()} for row in rows)
    return out.getvalue()
