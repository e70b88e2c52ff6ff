"""The rules handout printed by a real browser: one A4 sheet per preset and language.

Chromium prints each handout to PDF (``page.pdf(format="A4")``, the browser's own print
pipeline, with its print style sheet) and the PDF's pages are counted. A screenshot of the page
as printed (print media, A4's width) goes to test-artifacts/ to be looked at.
"""

from __future__ import annotations

import re

import pytest
from browser_support import ARTIFACTS

from rummy_widget.engine.rules import PRESETS
from rummy_widget.teaching import handout
from rummy_widget.teaching.handout import STYLE

pytestmark = pytest.mark.browser

#: A4 at CSS's 96 pixels per inch: 210 mm by 297 mm.
A4_WIDTH_PX, A4_HEIGHT_PX = round(210 / 25.4 * 96), round(297 / 25.4 * 96)
#: The handout's @page margins (rummy_widget/teaching/handout.py's style sheet).
MARGINS = re.search(r"@page \{ size: A4; margin: ([^;]+);", STYLE)[1]


def printed_pages(page, html: str) -> int:
    page.set_content(html)
    pdf = page.pdf(format="A4", print_background=True)
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


@pytest.mark.parametrize("lang", ["en", "fi"])
@pytest.mark.parametrize("rules", PRESETS)
def test_the_handout_prints_on_one_a4_page(page, rules, lang):
    text = handout(rules, lang)
    assert printed_pages(page, text) == 1
    # The sheet as printed: print media, A4's size, the @page margins as the body's padding.
    page.emulate_media(media="print")
    page.set_viewport_size({"width": A4_WIDTH_PX, "height": A4_HEIGHT_PX})
    page.set_content(text)
    page.add_style_tag(content=f"body {{ padding: {MARGINS} }}")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"handout-{rules}-{lang}.png"), full_page=True)
    # Nothing spills: the rules table and the longest words fit the sheet's width and height.
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_WIDTH_PX
    assert page.evaluate("document.documentElement.scrollHeight") <= A4_HEIGHT_PX


def test_the_page_count_sees_a_second_sheet(page):
    """The count is no constant: two handouts on one page print on two sheets or more."""
    text = handout("rummy_royal", "fi")
    twice = text.replace("</main>", "</main>" + re.search(r"<main>.*</main>", text)[0])
    assert printed_pages(page, twice) >= 2
