"""Every relative link in the README and the docs leads somewhere: a file of the repository and,
when it names one, a heading of that file (GitHub's anchors). The README's pictures exist and
stay small; tests/browser/test_readme_pictures.py takes them again from the real table and board.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
#: ``[text](target)`` and ``![alt](target)``, outside code spans.
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)
PICTURES = ("docs/images/table.png", "docs/images/board.png")
MOST_BYTES = 150_000


def prose(page: Path) -> str:
    """The page without its code blocks and code spans, where brackets are code, not links."""
    return CODE_SPAN.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"[^\w\- ]", "", text.replace("`", "").lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        slug = anchor(heading)
        found.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return found


def relative_links(page: Path) -> list[str]:
    return [
        link
        for link in LINK.findall(prose(page))
        if not re.match(r"[a-z][a-z0-9+.-]*:", link)  # http:, https:, mailto:
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(page):
    broken = []
    for link in relative_links(page):
        path, _, fragment = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        if not target.exists():
            broken.append(f"{link}: no such file")
        elif fragment and target.suffix == ".md" and fragment not in anchors(target):
            broken.append(f"{link}: no heading #{fragment} in {target.name}")
    assert broken == [], f"{page.relative_to(REPO)}: {broken}"


def test_the_checks_see_a_broken_link_and_a_missing_heading(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A title\n\n[gone](nothing.md), [here](#a-title), [not](#no-such)\n`[x](y)`")
    assert relative_links(page) == ["nothing.md", "#a-title", "#no-such"]
    assert anchors(page) == {"a-title"}
    assert anchor("The `Rules` object: a preset, or yours?") == "the-rules-object-a-preset-or-yours"


def test_the_readme_shows_the_table_and_the_teachers_board():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for picture in PICTURES:
        assert f"]({picture})" in readme, picture
        data = (REPO / picture).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", picture
        assert len(data) <= MOST_BYTES, (picture, len(data))
