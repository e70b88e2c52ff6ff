"""Add or update translation keys in both tables at once, keeping the files sorted.

Usage: python scripts/locale_add.py KEY "English text" "Suomenkielinen teksti" [KEY EN FI ...]
Several people edit the tables; this re-reads each file just before writing it.
"""

import json
import sys
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "rummy_widget" / "locales"


def main(argv: list[str]) -> None:
    if not argv or len(argv) % 3:
        sys.exit(__doc__)
    triples = [argv[i : i + 3] for i in range(0, len(argv), 3)]
    for column, lang in ((1, "en"), (2, "fi")):
        path = LOCALES / f"{lang}.json"
        data = json.loads(path.read_text("utf-8")) if path.exists() else {}
        for triple in triples:
            data[triple[0]] = triple[column]
        text = json.dumps(dict(sorted(data.items())), ensure_ascii=False, indent=1) + "\n"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, "utf-8")
        tmp.replace(path)


if __name__ == "__main__":
    main(sys.argv[1:])
