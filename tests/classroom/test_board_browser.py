"""The teacher's board in headless Chromium: live tables, open hands on request, axe clean."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    browser_missing,
    in_ci,
    serious_violations,
)

from rummy_widget.classroom import Classroom, connect

from .players import play_all

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    missing = browser_missing()
    if missing:
        if in_ci():
            pytest.fail(f"the board's browser test needs {missing} (CI=true: not skipping)")
        pytest.skip(f"the board's browser test needs {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def test_the_board_shows_every_table_live_and_passes_axe(server_factory, page):
    server = server_factory()
    Classroom(server.url, server.key).create_room("KETTU", players=2, deals=1)
    ann, bo = connect(server.url, "KETTU", "Ann"), connect(server.url, "KETTU", "Bo")
    connect(server.url, "KETTU", "Cy")  # table 2 waits for a second learner
    page.goto(f"{server.url}/board?lang=fi#key={server.key}")
    tables = page.locator("article")
    tables.nth(1).wait_for()
    assert tables.count() == 2
    assert "Ann" in tables.nth(0).inner_text()
    assert "Odotetaan pelaajia" in tables.nth(1).inner_text()
    assert page.locator("article li .card").count() == 0  # no hand shown without asking
    ann.wait(lambda s: s["view"] is not None)
    mover = ann if ann.my_turn() else bo
    mover.act({"type": "draw", "source": "stock"})
    page.locator("article").first.get_by_text("siirrot 1").wait_for()  # live, by polling
    page.get_by_label("Näytä kaikki kädet").check()
    page.wait_for_function("document.querySelectorAll('article li .card').length >= 21")
    # Cards as the table shows them: rank and suit symbol, hearts and diamonds red, and the
    # Finnish card name for a screen reader.
    shown = page.locator("article li .card").evaluate_all(
        "cards => cards.map(c => [c.textContent, c.getAttribute('aria-label'),"
        " getComputedStyle(c).color])"
    )
    hands = Classroom(server.url, server.key).rooms(open_hands=True)[0]["tables"][0]["view"]
    codes = [c["code"] for hand in hands["hands"] for c in hand]
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    assert [text for text, _, _ in shown] == [c[:-1] + symbols[c[-1]] for c in codes]
    red = {text for text, _, colour in shown if colour == "rgb(198, 40, 40)"}
    assert red == {text for text, _, _ in shown if text[-1] in "♥♦"}
    names = {label for _, label, _ in shown}
    assert all(label and label[0].islower() and " " not in label for label in names), names
    assert any(label.startswith(("pata", "hertta", "ruutu", "risti")) for label in names)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "classroom-board-open-hands.png"), full_page=True)
    assert serious_violations(page, "main") == []
    page.get_by_role("button", name="Aloita nyt (botit tyhjille paikoille)").click()
    page.locator("article").nth(1).get_by_text("botti").first.wait_for()


def test_the_board_without_the_key_shows_only_an_error(server_factory, page):
    server = server_factory()
    page.goto(f"{server.url}/board#key=wrong-key-wrong-key")
    page.get_by_role("alert").get_by_text("The teacher key is not valid.").wait_for()
    assert page.locator("article").count() == 0


def test_the_board_keeps_two_learners_of_one_name_apart_by_their_table(server_factory, page):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("NIMET", players=2, deals=1)
    seats = [connect(server.url, "NIMET", name) for name in ("Alex", "Bo", "Alex", "Cy")]
    play_all(seats[:2])
    play_all(seats[2:])
    page.goto(f"{server.url}/board?lang=fi#key={server.key}")
    standings = page.locator("table.standings")
    standings.get_by_text("Alex (pöytä 2)").wait_for()
    names = standings.locator("td:first-child").all_inner_texts()
    assert sorted(names) == ["Alex (pöytä 1)", "Alex (pöytä 2)", "Bo", "Cy"]
    page.screenshot(path=str(ARTIFACTS / "classroom-board-standings.png"), full_page=True)
    assert serious_violations(page, "main") == []
