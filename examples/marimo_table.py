"""The card table in marimo: `marimo edit examples/marimo_table.py` (or `marimo run`).

marimo shows the anywidget inside a shadow root. A cell reruns only on changes marimo sees:
``mo.ui.anywidget(table).value`` changes when the *browser* changes a synced trait, but the
table publishes each new view from Python (a move is an intent the kernel checks), and marimo
does not see a trait set in Python. So the example bridges the view into marimo's reactive graph
with ``mo.state`` and ``observe`` (the pattern marimo's own guide gives, marimo-team/marimo-pair
PR 9): the cell that reads ``get_view()`` reruns after every move, bot turn and new deal. A cell
that reads ``table.game`` directly never reruns on its own. See docs/hosts.md.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App()


@app.cell
def _():
    import marimo as mo

    from rummy_widget import RummyTable

    return RummyTable, mo


@app.cell
def _(RummyTable, mo):
    table = RummyTable(opponents=["basic"], seed=19, bot_speed="instant", lang="en")
    # Each view the table publishes from Python, passed on to marimo (which reruns its readers).
    get_view, set_view = mo.state(table.view)
    table.observe(lambda change: set_view(change["new"]), names="view")
    return get_view, table


@app.cell
def _(mo, table):
    mo.ui.anywidget(table)
    return


@app.cell
def _(get_view, mo):
    # Reruns after every new view: get_view() is marimo state, set by the observer above.
    view = get_view()
    mo.md(
        f"revision {view['rev']}, {view['phase']}, "
        f"{len(view['hand'])} cards in the hand, {view['stock_size']} in the stock"
    )
    return


if __name__ == "__main__":
    app.run()
