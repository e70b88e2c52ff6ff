"""Two learners play a whole classroom deal through two real browsers in JupyterLab, each with
``RummyTable(server=..., room=..., name=...)`` in its own notebook; the teacher's board in a
third browser follows the table live and passes axe. The room plays two deals: each page
shows the first deal's scoreboard (no Review or Play again at a classroom seat) until its
learner presses Next deal, and then the second deal, which the server dealt meanwhile.

The classroom server runs as a real process with ``--origin`` set to JupyterLab's address (the
notebook page is another origin than the server). The test keeps a shadow ``Game`` dealt as
the server deals (duplicate deal 0 of seed 0): each move is decided on the shadow by the basic
bot, clicked on the mover's page, and the pages must then show the shadow's position from
their own seat. One page is reloaded mid-deal: the seat comes back with the token kept in the
browser, and the token is not in the saved notebook.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from browser_support import REPO, open_notebook, run_cell, screenshot, serious_violations
from table_driver import SNAPSHOT_JS, TablePage

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from classroom.conftest import Server

from rummy_widget import Game
from rummy_widget.bots import get_bot
from rummy_widget.classroom import Classroom
from rummy_widget.classroom.rooms import deal_seed
from rummy_widget.engine.cards import Card, card_name
from rummy_widget.i18n import t

pytestmark = pytest.mark.browser

ROOM = "KETTU"
#: The teacher's seed for the room (a lesson's: anyone who knows it can compute the deals,
#: which is what this test does to check each page's cards).
LESSON_SEED = 2024
NAMES = ("Alex", "Bo")
#: One move (a click, the kernel, the server, the relays, both kernels) may take this long.
MOVE_MS = 30_000


@pytest.fixture
def classroom(tmp_path, lab, notebook7):
    origins = ["--origin", lab.url, "--origin", notebook7.url]
    server = Server(tmp_path, "--players", "2", "--deals", "2", *origins).start()
    Classroom(server.url, server.key).create_room(ROOM, players=2, deals=2, seed=LESSON_SEED)
    yield server
    server.stop()


def notebook(jupyter, server: Server, name: str) -> str:
    cell = (
        "from rummy_widget.table.widget import RummyTable\n\n"
        f"table = RummyTable(server={server.url!r}, room={ROOM!r}, name={name!r}, "
        'bot_speed="instant")\ntable'
    )
    return jupyter.write_notebook(f"classroom-{name}.ipynb", [cell])


def expected(game: Game, seat: int) -> dict:
    """What the seat's page must show (the table driver's snapshot) for the shadow game."""
    obs = game.observation(seat)
    top = obs["discard_pile"][0] if obs["discard_pile"] else None
    if obs["phase"] == "over":
        status = t("ui.turn.over", "en")
    elif obs["current_player"] != seat:
        status = t("ui.turn.other", "en", name=game.names[obs["current_player"]])
    else:
        status = t("ui.turn.draw" if obs["phase"] == "draw" else "ui.turn.play", "en")
    return {
        "hand": sorted(c["id"] for c in obs["hand"]),
        "melds": len(obs["melds"]),
        "stock": t("ui.stock_count", "en", n=obs["stock_size"]),
        "pile": t("ui.discard_top", "en", card=card_name(Card(top["id"]), "en"))
        if top
        else t("ui.pile_empty", "en"),
        "status": status,
    }


def shows(table: TablePage, want: dict) -> None:
    """Wait until the page shows ``want``; fail with both sides if it never does."""
    try:
        table.page.wait_for_function(
            f"([root, want]) => JSON.stringify(({SNAPSHOT_JS})(root)) === want",
            arg=[
                table.root.element_handle(),
                json.dumps(want, ensure_ascii=False, separators=(",", ":")),
            ],
            timeout=MOVE_MS,
        )
    except Exception as err:
        raise AssertionError(f"expected {want}\n    page {table.snapshot()}") from err


def cards_on_page(page) -> set[int]:
    """Every card id anywhere in the page's table (faces only: backs carry none)."""
    ids = page.locator(".rw-root [data-card]").evaluate_all("els => els.map(e => +e.dataset.card)")
    return set(ids)


def test_two_learners_play_a_deal_in_two_browsers_and_the_board_follows(
    browser, lab, notebook7, classroom
):
    """Alex in JupyterLab, Bo in Notebook 7: one path for both."""
    contexts = [browser.new_context(viewport={"width": 1366, "height": 900}) for _ in range(3)]
    try:
        for context in contexts:
            context.set_default_timeout(60_000)
        pages = [context.new_page() for context in contexts[:2]]
        jupyters = [lab, notebook7]
        files = [notebook(j, classroom, name) for j, name in zip(jupyters, NAMES, strict=True)]
        tables = []
        for page, jupyter, name in zip(pages, jupyters, files, strict=True):
            open_notebook(page, jupyter, name)
            run_cell(page, 0)
            tables.append(TablePage(page))
        for table in tables:
            table.root.locator(".rw-hand [data-card]").first.wait_for(timeout=MOVE_MS)
        seats = Classroom(classroom.url, classroom.key).tables()[0]["seats"]
        names = [s["name"] for s in seats]
        assert sorted(names) == sorted(NAMES)
        game = Game(names, seed=deal_seed(LESSON_SEED, 0))  # the room's deal 0
        at = {name: names.index(name) for name in NAMES}
        pages_by_seat = {at[n]: (p, tb) for n, p, tb in zip(NAMES, pages, tables, strict=True)}
        for seat, (page, table) in pages_by_seat.items():
            shows(table, expected(game, seat))
            # Only its own hand (and the pile's top card) has faces on this page.
            top = {game.discard_pile[0].id}
            assert cards_on_page(page) - top == {c.id for c in game.hand(seat)}
            screenshot(page, f"classroom-start-seat{seat}", still=True)
            assert serious_violations(page) == []
        board = contexts[2].new_page()
        board.goto(f"{classroom.url}/board#key={classroom.key}")
        article = board.locator("article").first
        article.get_by_text(names[0]).first.wait_for()
        bots = [get_bot("basic", seed=7 + seat) for seat in range(2)]
        reloaded = False
        for move in range(400):
            if game.phase == "over":
                break
            seat = game.current_player
            page, table = pages_by_seat[seat]
            shows(table, expected(game, seat))
            other = pages_by_seat[1 - seat][0]
            assert not cards_on_page(page) & {c.id for c in game.hand(1 - seat)}
            assert not cards_on_page(other) & {c.id for c in game.hand(seat)}
            if move >= 6 and not reloaded and names[seat] == NAMES[0]:
                reloaded = True  # Alex's JupyterLab page reloads mid-deal: the seat comes back
                table = seat_back(lab, page, files[0], game, seat)
                pages_by_seat[seat] = (page, table)
                article.get_by_text(f"{t('classroom.board.moves', 'en')} {move}").first.wait_for()
                screenshot(board, "classroom-board-live")
            action = bots[seat].act(game.observation(seat))
            table.click_move(action)
            game.apply(action, player=seat)
        assert game.phase == "over" and reloaded
        deal_of = {n: t("ui.deal_of", "en", n=n, total=2) for n in (1, 2)}
        for seat, (page, table) in pages_by_seat.items():
            shows(table, expected(game, seat))
            score = table.root.locator(".rw-score")
            score.get_by_text(deal_of[1]).wait_for()  # the first deal's result, kept on screen
            assert table.root.locator(".rw-deal").inner_text() == deal_of[1]
            for key in ("ui.review", "ui.play_again", "ui.take_back"):
                assert table.button(key).count() == 0, key  # a classroom seat cannot
            screenshot(page, f"classroom-over-seat{seat}")
        # The server dealt deal 2 at once (the room's deal 2, from the lesson's seed).
        article.get_by_text(
            f"{t('classroom.board.deal', 'en')} 2/2 · {t('classroom.board.moves', 'en')} 0"
        ).first.wait_for()
        second = Game(names, seed=deal_seed(LESSON_SEED, 1))
        for seat, (page, table) in pages_by_seat.items():
            table.button("ui.next_deal").click()
            shows(table, expected(second, seat))
            assert table.root.locator(".rw-deal").inner_text() == deal_of[2]
            assert table.root.locator(".rw-score").count() == 0
            assert cards_on_page(page) - {second.discard_pile[0].id} == {
                c.id for c in second.hand(seat)
            }
            screenshot(page, f"classroom-deal2-seat{seat}", still=True)
        screenshot(board, "classroom-board")
        assert serious_violations(board, "main") == []
    finally:
        for context in contexts:
            context.close()


def seat_back(lab, page, name: str, game: Game, seat: int) -> TablePage:
    """Save the notebook, reload the page: the widget comes back in the same seat (the relay
    offers the token it kept in localStorage), and the token is not in the saved notebook."""
    token = page.evaluate(
        "() => Object.keys(localStorage).filter(k => k.startsWith('rummy_widget.seat'))"
        ".map(k => localStorage.getItem(k))"
    )
    assert len(token) == 1 and len(token[0]) >= 32
    page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor .cm-content").first.click()
    page.keyboard.press("Control+s")
    saved = lab.root / name
    page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=MOVE_MS)
    text = saved.read_text()
    assert "application/vnd.jupyter.widget-view+json" in text
    assert token[0] not in text
    page.reload()
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for()
    fresh = TablePage(page)
    fresh.root.locator(".rw-hand [data-card]").first.wait_for(timeout=MOVE_MS)
    shows(fresh, expected(game, seat))
    screenshot(page, f"classroom-reloaded-seat{seat}", still=True)
    return fresh


@pytest.mark.slow
def test_a_learner_in_the_zero_install_site_plays_a_deal_through_the_browsers_socket(
    browser, tmp_path
):
    """JupyterLite: Python runs in Pyodide, which cannot open sockets; the page's relay does.
    Alex plays from the site's notebook, Bo is a script (``connect``)."""
    from lite_support import build_site, lite_url, run_new_cell, serve, wait_kernel_idle

    from rummy_widget.classroom import connect

    site = serve(build_site(tmp_path / "site"), tmp_path / "served.log")
    classroom = Server(tmp_path, "--players", "2", "--deals", "1", "--origin", site.url)
    classroom.start()
    Classroom(classroom.url, classroom.key).create_room(ROOM, players=2, deals=1, seed=LESSON_SEED)
    context = browser.new_context(viewport={"width": 1366, "height": 1000})
    context.set_default_timeout(180_000)
    try:
        page = context.new_page()
        lesson = REPO / "tutorials" / "en" / "06_play_against_bots.ipynb"
        cells = len(json.loads(lesson.read_text())["cells"])
        page.goto(lite_url(site, "en/06_play_against_bots.ipynb"))
        wait_kernel_idle(page)
        page.wait_for_function(
            f"document.querySelectorAll('.jp-Notebook .jp-Cell').length == {cells}"
        )
        code = (
            "from rummy_widget import RummyTable; "
            f"RummyTable(server={classroom.url!r}, room={ROOM!r}, name='Alex', "
            "bot_speed='instant')"
        )
        run_new_cell(page, code)
        table = TablePage(page)
        table.root = page.locator(".rw-root").last
        waiting = t("ui.remote.waiting", "en", room=ROOM, table=1, seated=1, seats=2)
        table.root.get_by_text(waiting).wait_for()
        bo = connect(classroom.url, ROOM, "Bo")
        game = Game(["Alex", "Bo"], seed=deal_seed(LESSON_SEED, 0))
        bots = [get_bot("basic", seed=21 + seat) for seat in range(2)]
        for _ in range(400):
            if game.phase == "over":
                break
            seat = game.current_player
            if seat == 0:
                shows(table, expected(game, 0))
            action = bots[seat].act(game.observation(seat))
            if seat == 0:
                table.click_move(action)
            else:
                bo.wait(lambda s: bo.my_turn(s))
                bo.act(action)
            game.apply(action, player=seat)
        assert game.phase == "over"
        shows(table, expected(game, 0))
        table.root.locator(".rw-score").wait_for()
        screenshot(page, "classroom-lite-over")
        bo.close()
    finally:
        context.close()
        classroom.stop()
        site.stop()


def test_a_notebook_page_the_server_does_not_allow_is_told_what_to_check(browser, lab, tmp_path):
    """Without ``--origin`` for JupyterLab's address the server refuses the page's socket
    (another port is another origin); the table names the likely causes instead of hanging."""
    server = Server(tmp_path, "--players", "2").start()
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    context.set_default_timeout(60_000)
    try:
        page = context.new_page()
        open_notebook(page, lab, notebook(lab, server, "Cy"))
        run_cell(page, 0)
        told = t("ui.remote.unreachable", "en", server=server.url)
        page.locator(".rw-root").get_by_text(told).wait_for()
        screenshot(page, "classroom-origin-refused")
        assert Classroom(server.url, server.key).tables() == []  # nobody joined
    finally:
        context.close()
        server.stop()
