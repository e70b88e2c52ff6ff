"""Fixtures for the real-browser tests: headless Chromium per module, Jupyter servers per session.

Without Debian's Chromium (or the Playwright package) the browser tests are skipped with one
line saying why; under CI=true that is a failure instead, so CI cannot pass without them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_support import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    browser_missing,
    in_ci,
    start_server,
)


@pytest.fixture(scope="session")
def chromium() -> str:
    """Chromium's path, once the browser tests' requirements are known to be there."""
    missing = browser_missing()
    if missing:
        message = f"browser tests need {missing}"
        if in_ci():
            pytest.fail(f"{message} (CI=true: not skipping)", pytrace=False)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="module")
def browser(chromium):
    """Headless Chromium for one test module.

    Module scope, not session: Playwright's sync API runs one event loop per thread, so a
    browser kept open for the whole session would break any later test that starts its own
    ``sync_playwright()`` (tests/test_display.py does).
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request):
    """A fresh browser context per test; a screenshot is kept when the test fails."""
    context = browser.new_context(viewport={"width": 1280, "height": 1400}, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"failed-{request.node.name}.png"))
    context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def _server(kind: str, tmp_path_factory):
    server = start_server(kind, tmp_path_factory.mktemp(f"jupyter-{kind}"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def lab(chromium, tmp_path_factory):
    """`jupyter lab` on a free loopback port, token auth off, its own folders."""
    yield from _server("lab", tmp_path_factory)


@pytest.fixture(scope="session")
def notebook7(chromium, tmp_path_factory):
    """`jupyter notebook` (Notebook 7) on a free loopback port, token auth off."""
    yield from _server("notebook", tmp_path_factory)


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


os.environ.pop("ANYWIDGET_HMR", None)
