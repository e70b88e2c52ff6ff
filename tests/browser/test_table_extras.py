"""The table's extras in real JupyterLab: take-backs (and, as they land, the review and hot
seat). Screenshots go to test-artifacts/.

Like test_browser.py, a machine without Chromium skips this module with one line (an error
under CI=true).
"""

from __future__ import annotations

import re

import pytest
from browser_support import browser_missing, in_ci, open_notebook, run_cell, screenshot

if browser_missing():
    if in_ci():
        raise RuntimeError(f"CI=true, and the browser tests need {browser_missing()}")
    pytest.skip(f"browser tests need {browser_missing()}", allow_module_level=True)

from playwright.sync_api import expect
from table_driver import TablePage

from rummy_widget.i18n import t


def open_table(page, lab, name: str, source: str, lang: str = "en") -> TablePage:
    """A notebook with one cell that shows a table, run in JupyterLab, the table drawn."""
    lab.write_notebook(name, [source])
    open_notebook(page, lab, name)
    run_cell(page, 0)
    table = TablePage(page, lang)
    table.wait_rendered()
    return table


TAKE_BACK = """from rummy_widget import Game
from rummy_widget.table.widget import RummyTable

game = Game.from_layout(hands=["7H 8H 2C 5S", "3D 4D 5D 6C 6S"], stock="QC JD 10S", discard="9H")
table = RummyTable(game=game, opponents=["basic"], bot_speed="instant", lang="fi")
table"""


def test_a_pile_draw_is_taken_back_and_a_stock_draw_is_refused_with_its_reason(lab, page):
    table = open_table(page, lab, "take-back.ipynb", TAKE_BACK, "fi")
    undo = table.root.get_by_role("button", name="Peru siirto", exact=True)
    expect(undo).to_have_attribute("aria-disabled", "true")
    hand = table.root.locator(".rw-hand [data-card]")
    expect(hand).to_have_count(4)
    table.button("ui.discard_pile").click()
    expect(hand).to_have_count(5)
    expect(undo).not_to_have_attribute("aria-disabled", "true")
    undo.click()
    expect(hand).to_have_count(4)
    expect(table.alert()).to_have_text(re.compile(r"^Peruttu: kortti .+ on taas poistopakan"))
    table.button("ui.stock").click()
    expect(hand).to_have_count(5)
    undo.click(force=True)  # disabled: Python names the rule on the message line
    expect(table.alert()).to_have_text(t("error.stock_draw_kept", "fi", player="Sinä"))
    expect(hand).to_have_count(5)
    screenshot(page, "table-take-back-fi", table.root)


REVIEW = """from rummy_widget import Game
from rummy_widget.bots import get_bot
from rummy_widget.table.widget import RummyTable

game = Game.from_layout(
    hands=["5H 6H 7H 9S 9D 9C", "2D 3S 8H 4S 8C JC"], stock="KD 4D 10S QS JS", discard="2C"
)
game.draw("stock")
game.discard("5H")  # the planted blunder: meld both and throw K♦ away goes Rummy
bot = get_bot("basic", seed=1)
while game.phase != "over":
    game.apply(bot.act(game.observation(game.current_player)), player=game.current_player)
table = RummyTable(game=game, opponents=["basic"], bot_speed="instant", review_samples=8, seed=3)
table"""


def test_the_review_lists_the_blunder_and_opens_its_replay_with_the_better_move_outlined(lab, page):
    table = open_table(page, lab, "review.ipynb", REVIEW)
    root = table.root
    root.get_by_role("button", name=t("ui.review", "en"), exact=True).click()
    blunder = root.locator(".rw-review li").filter(has_text="5♥")
    expect(blunder).to_have_count(1, timeout=60_000)
    expect(root.get_by_role("button", name=t("ui.review", "en"), exact=True)).to_have_count(0)
    screenshot(page, "table-review-list", root)
    blunder.get_by_role("button").click()
    # "Move 2" (the discard): the replay shows the position after one move, move 2 at hand.
    expect(root.locator(".rw-replay-pos")).to_have_text(re.compile(r"^Move 2 of \d+$"))
    expect(root.locator(".rw-hinted").first).to_be_visible()
    screenshot(page, "table-review-replay", root)
    root.get_by_role("button", name=t("ui.review.back", "en"), exact=True).click()
    expect(root.locator(".rw-replay")).to_have_count(0)
    expect(blunder).to_have_count(1)


HOT_SEAT = """from rummy_widget.table.widget import RummyTable

table = RummyTable(players=["Ann", "Bo"], opponents=["basic"], seed=4, bot_speed="instant")
table"""


def test_hot_seat_hides_the_hands_until_the_next_person_presses(lab, page):
    table = open_table(page, lab, "hot-seat.ipynb", HOT_SEAT)
    root = table.root
    hand = root.locator(".rw-hand [data-card]")
    expect(hand).to_have_count(10)
    expect(root.get_by_role("button", name=t("ui.take_back", "en"), exact=True)).to_have_count(0)
    table.button("ui.stock").click()
    expect(hand).to_have_count(11)
    hand.first.click()
    height = root.bounding_box()["height"]
    table.button("ui.discard").click()
    expect(root).to_contain_text(t("ui.pass.title", "en", name="Bo"))
    expect(root.locator("[data-card]")).to_have_count(0)
    # The pass screen keeps the table's height: the notebook below it does not jump.
    assert abs(root.bounding_box()["height"] - height) <= 2, (height, root.bounding_box())
    screenshot(page, "table-hot-seat-pass", root)
    root.get_by_role("button", name=t("ui.pass.go", "en", name="Bo"), exact=True).click()
    expect(hand).to_have_count(10)
