"""The teacher's records of a room, read from the store: results, standings and CSV rows.

Lower penalty points are better in Traditional Rummy, so the standings sort by them.
"""

from __future__ import annotations

import csv
import io

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
    """Each name's deals, wins and penalty points over the deals played, best first."""
    table: dict[str, dict] = {}
    for row in rows:
        entry = table.setdefault(
            row["name"], {"name": row["name"], "deals": 0, "wins": 0, "penalty": 0}
        )
        entry["deals"] += 1
        entry["wins"] += row["winner"]
        entry["penalty"] += row["penalty"]
    return sorted(table.values(), key=lambda e: (e["penalty"] / e["deals"], -e["wins"], e["name"]))


def to_csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
