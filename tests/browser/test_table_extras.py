"""The table's extras in real JupyterLab: take-backs (and, as they land, the review and hot
seat). Screenshots go to test-artifacts/.

Like test_browser.py, a machine without Chromium skips this module with one line (an error
under CI=true).
"""

from __future__ import annotations

import pytest
from browser_support import browser_missing, in_ci, open_notebook, run_cell, screenshot

if browser_missing():
    if in_ci():
        raise RuntimeError(f"CI=true, and the browser tests need {browser_missing()}")
    pytest.skip(f"browser tests need {browser_missing()}", allow_module_level=True)

from playwright.sync_api import expect
from table_driver import TablePage

from rummy_widget.i18n import t

TAKE_BACK = """from rummy_widget import Game
from rummy_widget.table.widget import RummyTable

game = Game.from_layout(hands=["7H 8H 2C 5S", "3D 4D 5D 6C 6S"], stock="QC JD 10S", discard="9H")
table = RummyTable(game=game, opponents=["basic"], bot_speed="instant", lang="fi")
table"""


def test_a_pile_draw_is_taken_back_and_a_stock_draw_is_refused_with_its_reason(lab, page):
    lab.write_notebook("take-back.ipynb", [TAKE_BACK])
    open_notebook(page, lab, "take-back.ipynb")
    run_cell(page, 0)
    table = TablePage(page, "fi")
    table.wait_rendered()
    undo = table.root.get_by_role("button", name="Peru siirto", exact=True)
    expect(undo).to_have_attribute("aria-disabled", "true")
    hand = table.root.locator(".rw-hand [data-card]")
    expect(hand).to_have_count(4)
    table.button("ui.discard_pile").click()
    expect(hand).to_have_count(5)
    expect(undo).not_to_have_attribute("aria-disabled", "true")
    undo.click()
    expect(hand).to_have_count(4)
    table.button("ui.stock").click()
    expect(hand).to_have_count(5)
    undo.click(force=True)  # disabled: Python names the rule on the message line
    expect(table.alert()).to_have_text(t("error.stock_draw_kept", "fi", player="Sinä"))
    expect(hand).to_have_count(5)
    screenshot(page, "table-take-back-fi", table.root)
