"""The plumbing itself: both servers serve a notebook whose cell runs in a real kernel."""

from __future__ import annotations

import pytest
from browser_support import cell_output, open_notebook, run_cell


@pytest.mark.parametrize("front_end", ["lab", "notebook7"])
def test_a_cell_runs_in_a_real_kernel(front_end, request, page):
    server = request.getfixturevalue(front_end)
    name = server.write_notebook(f"plumbing-{front_end}.ipynb", ["print(6 * 7, 'from kernel')"])
    open_notebook(page, server, name)
    run_cell(page, 0)
    assert cell_output(page, 0).strip() == "42 from kernel"
