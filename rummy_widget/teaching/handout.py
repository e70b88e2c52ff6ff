"""A one-page printable rules handout for a class: one preset, one language, A4.

``handout("rummy_royal", "fi")`` returns a whole HTML page: the goal, a turn's three steps,
melds, going out and penalty points in the words of the rules text (the ``handout.*`` keys),
then the preset's rules as a table (``Rules.describe``, without the ring-game payout: the
pupils are minors and play for points). Its print style sheet sets an A4 page, so a browser's
Print prints one sheet; ``rummy-widget handout`` writes it to a file.
"""

from __future__ import annotations

from ..display.markup import esc, tag
from ..engine.cards import parse_cards
from ..engine.rules import Rules
from ..i18n import check_lang, t

#: Rows of ``Rules.describe`` left off the handout: money has no place in a school lesson.
LEFT_OFF = ("payout",)

#: Example melds every preset accepts, drawn with the suits' symbols.
SET_EXAMPLE, RUN_EXAMPLE = "7S 7H 7D", "4H 5H 6H"

STYLE = """
@page { size: A4; margin: 11mm 13mm; }
* { box-sizing: border-box; }
body { font: 10pt/1.3 "DejaVu Sans", Arial, sans-serif; color: #111; margin: 0; }
main { max-width: 184mm; margin: 0 auto; padding: 6mm 0; }
h1 { font-size: 18pt; margin: 0; }
.preset { font-size: 11pt; margin: 0.5mm 0 2mm; color: #333; }
h2 { font-size: 12pt; margin: 3mm 0 1mm; border-bottom: 0.4mm solid #2b6a3d; }
p, ol, ul { margin: 1mm 0; }
ol, ul { padding-left: 6mm; }
li { margin: 0.4mm 0; }
.cards { white-space: nowrap; font-weight: bold; }
.red { color: #c00000; }
table { border-collapse: collapse; width: 100%; font-size: 8.5pt; margin-top: 1mm; }
th, td { border: 0.25mm solid #999; padding: 0.6mm 1.5mm; text-align: left; vertical-align: top; }
th { width: 30%; background: #eef4ef; }
footer { margin-top: 2mm; font-size: 8pt; color: #555; }
@media print {
  main { padding: 0; max-width: none; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def handout(rules: str | Rules = "traditional", lang: str = "en") -> str:
    """The rules handout of a preset (its name or a ``Rules``) in ``lang``, as an HTML page."""
    check_lang(lang)
    found = Rules.preset(rules, lang)
    described = found.describe(lang)
    rows = dict(described.rows)
    values = {key: rows[t(f"rules.row.{key}", lang)] for key in ("set", "run", "ace_runs")}
    body = "".join(
        [
            tag("h1", esc(t("handout.title", lang))),
            tag("p", esc(described.title), class_="preset"),
            tag("p", esc(t("handout.goal", lang))),
            _turn(found, lang),
            _melds(values, lang),
            _end(found, lang),
            tag("h2", esc(t("handout.head.table", lang))),
            _table(described.rows, lang),
            _footer(found, lang),
        ]
    )
    head = tag("meta", None, charset="utf-8") + tag("title", esc(described.title))
    head += tag("style", STYLE)
    return "<!DOCTYPE html>\n" + tag(
        "html", tag("head", head) + tag("body", tag("main", body)), lang=lang
    )


def _turn(rules: Rules, lang: str) -> str:
    steps = [t("handout.turn.draw", lang), t("handout.turn.meld", lang)]
    discard = t("handout.turn.discard", lang)
    if not rules.discard_taken_card:
        discard += " " + t("handout.turn.taken", lang)
    items = "".join(tag("li", _named(step)) for step in [*steps, discard])
    return tag("h2", esc(t("handout.head.turn", lang))) + tag("ol", items)


def _named(text: str) -> str:
    """ "Nosto: ..." with its term in bold, so a pupil finds the rules text's word at a glance."""
    term, colon, rest = text.partition(": ")
    return tag("strong", esc(term + colon.rstrip())) + " " + esc(rest) if colon else esc(text)


def _melds(values: dict[str, str], lang: str) -> str:
    set_rule = _named(t("handout.set", lang, rule=values["set"]))
    run_rule = _named(t("handout.run", lang, rule=values["run"]))
    items = [
        tag("li", set_rule + " " + _example(SET_EXAMPLE, lang)),
        tag("li", run_rule + " " + _example(RUN_EXAMPLE, lang)),
        tag("li", _named(t("handout.ace", lang, rule=values["ace_runs"]))),
        tag("li", esc(t("handout.one_meld", lang))),
    ]
    return tag("h2", esc(t("handout.head.melds", lang))) + tag("ul", "".join(items))


def _example(codes: str, lang: str) -> str:
    cards = " ".join(
        tag("span", esc(card), class_="red" if card.is_red else None) for card in parse_cards(codes)
    )
    before, after = t("handout.example", lang, cards="\n").split("\n")
    return esc(before) + tag("span", cards, class_="cards") + esc(after)


def _end(rules: Rules, lang: str) -> str:
    out = t("handout.out.discard" if rules.final_discard else "handout.out.any", lang)
    items = [
        _named(out),
        _named(t("handout.rummy", lang, bonus=rules.rummy_bonus)),
        esc(t("handout.penalty", lang, ace=rules.ace_points, face=rules.face_points)),
        esc(t("handout.match", lang)),
    ]
    body = tag("ul", "".join(tag("li", item) for item in items))
    return tag("h2", esc(t("handout.head.end", lang))) + body


def _table(rows: list[tuple[str, str]], lang: str) -> str:
    left_off = {t(f"rules.row.{key}", lang) for key in LEFT_OFF}
    kept = [(rule, value) for rule, value in rows if rule not in left_off]
    body = "".join(tag("tr", tag("th", esc(rule)) + tag("td", esc(value))) for rule, value in kept)
    return tag("table", tag("tbody", body))


def _footer(rules: Rules, lang: str) -> str:
    """The command that prints this handout again; none for rules changed from their preset."""
    if rules != Rules.preset(rules.name):
        return ""
    command = f"rummy-widget handout --rules {rules.name} --lang {lang}"
    return tag("footer", esc(t("handout.command", lang, command=command)))
