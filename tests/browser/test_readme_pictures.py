"""The README's pictures, taken from the real thing so that they stay current.

A seeded table in JupyterLab and the teacher's board of a real classroom server, both at
1366x768 in the light theme and in English, are written to docs/images/ (committed, unlike the
screenshots in test-artifacts/). Each picture is saved as a palette PNG so that it stays small
enough for the README's first screen; tests/test_docs_links.py checks that the README shows
both.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browser_support import REPO, open_notebook, run_cell
from table_driver import Shadow, TablePage, table_args, table_cell

sys.path.insert(0, str(REPO / "tests"))
from classroom.conftest import server_factory  # noqa: F401 (a fixture)
from classroom.players import play_all

from rummy_widget.classroom import Classroom, connect

IMAGES = REPO / "docs" / "images"
LAPTOP = {"width": 1366, "height": 768}
#: A picture over this many bytes slows the README's first screen.
MOST_BYTES = 150_000
#: A three-player deal where the learner has melded after a few turns.
SEED = 5
LEARNER_MOVES = 9


def save_small(shot: bytes, path: Path) -> None:
    """Write a screenshot as an optimised 256-colour PNG (the pictures are flat colours)."""
    from io import BytesIO

    from PIL import Image

    image = Image.open(BytesIO(shot)).convert("RGB")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    assert path.stat().st_size <= MOST_BYTES, (path.name, path.stat().st_size)


@pytest.fixture
def laptop_page(browser):
    context = browser.new_context(viewport=LAPTOP, locale="en-US", color_scheme="light")
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def test_the_readme_shows_a_table_in_play(lab, laptop_page):
    page = laptop_page
    args = table_args(opponents=["basic", "expert"], seed=SEED)
    lab.write_notebook("readme-table.ipynb", [table_cell(args)])
    open_notebook(page, lab, "readme-table.ipynb")
    run_cell(page, 0)
    table = TablePage(page, "en")
    table.wait_rendered()
    shadow = Shadow(args)
    table.wait_for(shadow.expected())
    for _ in range(LEARNER_MOVES):
        action = shadow.next_action()
        table.click_move(action)
        shadow.apply(action)
        table.wait_for(shadow.expected())
    assert "meld" in shadow.kinds, shadow.kinds  # the picture shows the learner's own meld
    table.root.scroll_into_view_if_needed()
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    save_small(table.root.screenshot(), IMAGES / "table.png")


def test_the_readme_shows_the_teachers_board(server_factory, laptop_page):  # noqa: F811
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("ILVES", players=4, deals=2, seed=SEED)  # the same picture each run
    names = ("Aino", "Bo", "Cy", "Di", "Eetu", "Fanni", "Gia", "Heikki")
    seats = [connect(server.url, "ILVES", name) for name in names]
    play_all(seats, until=lambda s: s["deal"] == 1 and s["move"] >= 8)
    page = laptop_page
    page.goto(f"{server.url}/board?lang=en#key={server.key}")
    page.locator("article").nth(1).wait_for()
    page.wait_for_function("document.body.dataset.updated")
    assert page.locator("table.standings tbody tr").count() == len(names)
    save_small(page.screenshot(), IMAGES / "board.png")
