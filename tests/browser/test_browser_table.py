"""The card table in real JupyterLab and Notebook 7: whole deals, errors, language, theme, keys."""

from __future__ import annotations

import pytest
from browser_support import cell_output, open_notebook, run_cell, screenshot
from table_driver import STATE_CELL, Shadow, TablePage, table_args, table_cell

from rummy_widget.i18n import t


def open_table(page, server, name: str, args: dict, cells: tuple[str, ...] = (STATE_CELL,)):
    """Save and open a notebook showing a table; run its first cell; return the rendered table."""
    server.write_notebook(name, [table_cell(args), *cells])
    open_notebook(page, server, name)
    run_cell(page, 0)
    table = TablePage(page, args.get("lang", "en"))
    table.wait_rendered()
    return table


def python_state(page, index: int = 1) -> dict[str, list[str]]:
    """Run the state cell and read what the kernel printed, line by line."""
    run_cell(page, index)
    lines = cell_output(page, index).strip().splitlines()
    return {line.split()[0]: line.split()[1:] for line in lines}


@pytest.mark.parametrize("front_end", ["lab", "notebook7"])
def test_a_whole_deal_with_the_mouse_matches_python(front_end, request, page):
    server = request.getfixturevalue(front_end)
    args = table_args()
    table = open_table(page, server, f"play-{front_end}.ipynb", args)
    shadow = Shadow(args)

    table.play_deal(shadow)

    assert {"draw", "meld", "lay_off", "discard"} <= set(shadow.kinds)
    board = table.root.get_by_role("region", name=t("ui.scoreboard", "en"))
    board.wait_for()
    rows = [row.locator("th, td").all_inner_texts() for row in board.locator("tbody tr").all()]
    result, totals = shadow.game.result, shadow.table.match.totals
    names = shadow.table.names
    assert rows == [[names[p], str(result.penalties[p]), str(totals[p])] for p in range(2)]
    winner = t("ui.result.out", "en", name=names[result.winner])
    assert winner in board.inner_text()
    if front_end == "lab":
        screenshot(page, "end-of-deal", table.root)

    state = python_state(page)
    assert state["phase"] == ["over"]
    assert state["winner"] == [str(result.winner)]
    assert state["penalties"] == [row[1] for row in rows]
    assert state["totals"] == [row[2] for row in rows]
    assert state["moves"] == [str(len(shadow.game.history))]
