"""apps/play.ipynb served by Voila (the [app] extra), in headless Chromium.

Voila runs the notebook and shows only its outputs: the settings and the table, no code. The
test plays a whole turn with the mouse (draw from the stock, discard, the bot answers), then
switches the settings to Finnish and starts a new game, whose table speaks Finnish.
"""

from __future__ import annotations

import sys

import pytest
from browser_support import REPO, free_port
from lite_support import app_server
from table_driver import MOVE_TIMEOUT_MS, TablePage

from rummy_widget.i18n import t

pytestmark = pytest.mark.slow
APP = REPO / "apps" / "play.ipynb"


@pytest.fixture(scope="module")
def voila(chromium, tmp_path_factory):
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    port = free_port()
    cmd = [sys.executable, "-m", "voila", str(APP), "--no-browser", f"--port={port}"]
    cmd += ["--Voila.ip=127.0.0.1", "--Voila.port_retries=0"]
    # Voila says when it listens (a GET of the app itself would start a kernel).
    with app_server(cmd, log, lambda: "is running at" in log.read_text()):
        yield f"http://127.0.0.1:{port}"


def hand_size(table: TablePage) -> int:
    return table.root.locator(".rw-hand [data-card]").count()


def test_the_app_plays_a_turn_and_switches_to_finnish(voila, page):
    from playwright.sync_api import expect

    page.goto(voila)
    table = TablePage(page, "en")
    table.wait_rendered(timeout=90_000)
    expect(page.locator(".jp-InputArea")).to_have_count(0)  # no code shown
    status = table.root.locator(".rw-status")
    expect(status).to_have_text(t("ui.turn.draw", "en"))
    assert hand_size(table) == 10

    table.button("ui.stock").click()
    expect(table.root.locator(".rw-hand [data-card]")).to_have_count(11, timeout=MOVE_TIMEOUT_MS)
    expect(status).to_have_text(t("ui.turn.play", "en"))
    table.root.locator(".rw-hand [data-card]").last.click()
    table.button("ui.discard").click()
    # The bot draws and discards in Python; the page comes back to the learner's draw.
    expect(status).to_have_text(t("ui.turn.draw", "en"), timeout=MOVE_TIMEOUT_MS)
    assert hand_size(table) == 10

    page.get_by_role("combobox", name=t("ui.language", "en")).first.select_option(
        label=t("ui.lang_name.fi", "fi")
    )
    page.get_by_role("button", name=t("app.new_game", "fi")).click()
    finnish = TablePage(page, "fi")
    expect(finnish.button("ui.stock")).to_be_visible(timeout=MOVE_TIMEOUT_MS)
    expect(finnish.root.locator(".rw-status")).to_have_text(t("ui.turn.draw", "fi"))
