"""examples/marimo_table.py under `marimo run`, in headless Chromium.

marimo renders the anywidget inside a shadow root (Playwright's CSS locators pierce it). The
test checks the paint, a click on the stock and a whole turn against a shadow table in this
process, and that the cell reading the view through ``mo.state`` reran with each new view (a
cell reading ``mo.ui.anywidget(table).value`` stays at revision 0: the view is set in Python,
which marimo does not see; docs/hosts.md).
"""

from __future__ import annotations

import sys

import pytest
from browser_support import REPO, free_port
from lite_support import answers, app_server
from table_driver import MOVE_TIMEOUT_MS, Shadow, TablePage, table_args

from rummy_widget.engine.actions import Action

pytestmark = pytest.mark.slow
EXAMPLE = REPO / "examples" / "marimo_table.py"


@pytest.fixture(scope="module")
def marimo(chromium, tmp_path_factory):
    log = tmp_path_factory.mktemp("marimo") / "marimo.log"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "marimo", "run", str(EXAMPLE), "--headless"]
    cmd += ["--host=127.0.0.1", f"--port={port}", "--no-token"]
    with app_server(cmd, log, lambda: answers(url + "/health")):
        yield url


def reading_cell(page, shadow: Shadow):
    """The markdown the state-reading cell shows, as it must read for the shadow's view."""
    view = shadow.table.view
    text = (
        f"revision {view['rev']}, {view['phase']}, "
        f"{len(view['hand'])} cards in the hand, {view['stock_size']} in the stock"
    )
    return page.get_by_text(text, exact=True)


def test_the_marimo_table_paints_draws_and_plays_a_turn(marimo, page):
    from playwright.sync_api import expect

    shadow = Shadow(table_args())  # the example's table: seed 19, basic bot, instant, English
    page.goto(marimo)
    table = TablePage(page, "en")
    table.wait_rendered()
    table.wait_for(shadow.expected())
    expect(reading_cell(page, shadow)).to_be_visible(timeout=MOVE_TIMEOUT_MS)

    kinds = []
    while shadow.game.phase != "over" and "discard" not in kinds:
        action = shadow.next_action()
        if not kinds:
            assert action.kind == "draw"
            action = Action("draw", source="stock")  # the stock click, whatever is best
        table.click_move(action)
        shadow.apply(action)
        kinds.append(action.kind)
        table.wait_for(shadow.expected())
        # The cell reading the view reran: it shows the new view's revision.
        expect(reading_cell(page, shadow)).to_be_visible(timeout=MOVE_TIMEOUT_MS)
    assert kinds[0] == "draw" and kinds[-1] == "discard"
