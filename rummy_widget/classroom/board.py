"""The teacher's board and the projector's view: one HTML page, and the JSON behind it.

``/board`` is the teacher's: the page holds no secret and asks for the key once (or takes
it from an address's ``#key=`` fragment, which it then removes from the address bar), keeps
it in the tab's ``sessionStorage``, and sends it in an ``Authorization`` header. It shows the
public view of every table (``?open=1`` adds every hand, for the teacher's eyes) and the
teacher's controls: new room, start, remove a learner, close a room. ``/projector`` needs no
key and can never show a hand: each table's seats and state, and the results of the deals
every table of the room has finished (``settled``); duplicate deals mean a finished table's
cards are the cards a slower table still holds.
"""

from __future__ import annotations

import json
from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..display.log_words import worded
from ..engine.game import Game
from ..errors import RuleError
from ..i18n import LANGUAGES
from ..i18n import table as locale_table
from . import keys, records, views
from .protocol import ProtocolError, error, room_name
from .rooms import RoomConfig


def _hub(request: Request):
    return request.app.state.hub


def _authorized(request: Request) -> bool:
    """The key in ``Authorization: Bearer``; anything unreadable (not ASCII, not a bearer
    key) is simply not the key: a 401, never a server error."""
    header = request.headers.get("authorization", "")
    key = header.removeprefix("Bearer ").strip()
    return keys.matches(key, _hub(request).key_digest)


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    return lang if lang in LANGUAGES else "en"


def _refused(request: Request, err: RuleError, status: int) -> JSONResponse:
    return JSONResponse(error(err, _lang(request)), status_code=status)


def guarded(handler):
    async def endpoint(request: Request):
        if not _authorized(request):
            return _refused(request, ProtocolError("bad_key"), 401)
        try:
            return await handler(request)
        except RuleError as err:
            return _refused(request, err, 400)

    return endpoint


async def page(request: Request, mode: str = "board") -> HTMLResponse:
    lang = _lang(request)
    # The board's own labels, the card names for the cards' accessible text, and the table's
    # own words for a kind of meld (the log comes in words, from ``table_record``).
    wanted = ("classroom.board.", "card.name", "card.rank.", "card.suit.", "ui.kind.")
    labels = {k: v for k, v in locale_table(lang).items() if k.startswith(wanted)}
    html = resources.files(__package__).joinpath("board.html").read_text("utf-8")
    html = html.replace("__LANG__", lang).replace("__MODE__", mode)
    html = html.replace("__LABELS__", json.dumps(labels))
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


async def projector_page(request: Request) -> HTMLResponse:
    return await page(request, "projector")


def table_record(hub, table, open_hands: bool, lang: str = "en") -> dict:
    """One table for the board: its seats, its public view (open hands on request) with each
    move of the log in the table's words (``display/log_words.py``), and its results."""
    table.sync(hub.store)
    log = []
    if table.game is not None:
        log = [{"seat": seat, "action": a.to_json()} for seat, a in table.game.history]
    deals = hub.store.deals(table.room, table.index)
    done = [{**r, "deal": d} for _, d, _, r in deals if r is not None]
    return {
        "room": table.room,
        "table": table.index,
        "deal": table.deal,
        "deals": table.config.deals,
        "move": table.moves,
        "finished": table.finished,
        "seats": views.seats_view(table),
        "view": worded_view(views.game_view(table, None, open_hands), lang),
        "log": log,
        "results": done,
    }


def worded_view(view: dict | None, lang: str) -> dict | None:
    """The public view with each move of its log in words, naming every player."""
    if view is None:
        return None
    names = [p["name"] for p in view["players"]]
    return dict(view, log=worded(view["log"], names, lang))


def _tables(hub, name: str) -> list:
    """The room's tables that have a seat taken, each read from the store."""
    room = hub.room(name)
    for index in sorted({row.tbl for row in hub.store.seats(name)}):
        room.table(index)
    return [table for _, table in sorted(room.tables.items())]


def settled(hub, tables: list) -> set[int]:
    """The deals every table of a room (with a learner or a bot seated) has finished: only
    these can be shown without the key. A table still to deal will play deal 0 too."""
    done = None
    for table in tables:
        if any(table.seats):
            finished = {d for _, d, _, r in hub.store.deals(table.room, table.index) if r}
            done = finished if done is None else done & finished
    return done or set()


async def projector(request: Request) -> JSONResponse:
    """Every room for the projector, no key needed: nothing of a deal still in play."""
    hub = _hub(request)
    out = []
    for name in sorted(hub.store.rooms()):
        tables = _tables(hub, name)
        shown = settled(hub, tables)
        rows = [r for r in records.results(hub.store, name) if r["deal"] in shown]
        out.append(
            {
                "room": name,
                "closed": hub.room(name).config.closed,
                "tables": [public_record(hub, t, shown) for t in tables],
                "standings": records.standings(rows),
            }
        )
    return JSONResponse({"rooms": out})


def public_record(hub, table, shown: set[int]) -> dict:
    """One table for the projector: its seats and where it is, never its cards."""
    deals = hub.store.deals(table.room, table.index)
    return {
        "room": table.room,
        "table": table.index,
        "deal": table.deal,
        "deals": table.config.deals,
        "move": None,
        "finished": table.finished,
        "seats": views.seats_view(table),
        "view": None,
        "log": [],
        "results": [{**r, "deal": d} for _, d, _, r in deals if r is not None and d in shown],
    }


@guarded
async def rooms(request: Request) -> JSONResponse:
    hub = _hub(request)
    open_hands = request.query_params.get("open") == "1"
    lang = _lang(request)
    out = []
    for name in sorted(hub.store.rooms()):
        room = hub.room(name)
        tables = [table_record(hub, t, open_hands, lang) for t in _tables(hub, name)]
        rows = records.results(hub.store, name)
        config = {k: v for k, v in room.config.to_dict().items() if k != "layouts"}
        finished = bool(tables) and all(t["finished"] for t in tables if any(t["seats"]))
        config["seed"] = config["seed"] if finished else None  # shown once it can leak nothing
        out.append(
            {
                "room": name,
                "finished": finished,
                "closed": room.config.closed,
                "config": config,
                "tables": tables,
                "standings": records.standings(rows),
            }
        )
    return JSONResponse({"rooms": out})


@guarded
async def create(request: Request) -> JSONResponse:
    hub = _hub(request)
    body = await _body(request)
    name = room_name(body.get("room"))
    given = body.get("config", {})
    if not isinstance(given, dict):
        raise ProtocolError("bad_field", field="config")
    # What the teacher leaves out comes from the command line's settings (a new seed).
    lang = given.get("lang") if given.get("lang") in LANGUAGES else "en"
    config = RoomConfig.read({**hub.default_config(lang).to_dict(), "seed": None, **given})
    hub.create_room(name, config)
    return JSONResponse({"room": name})


@guarded
async def start(request: Request) -> JSONResponse:
    tables = await _hub(request).start_room(request.path_params["room"])
    return JSONResponse({"started": tables})


@guarded
async def close(request: Request) -> JSONResponse:
    await _hub(request).close_room(request.path_params["room"])
    return JSONResponse({"closed": request.path_params["room"]})


@guarded
async def remove(request: Request) -> JSONResponse:
    """Remove a learner: ``{"table": 0, "seat": 1}``; the room's bot plays the seat."""
    body = await _body(request)
    where = [body.get(field) for field in ("table", "seat")]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in where):
        raise ProtocolError("bad_field", field="seat")
    await _hub(request).remove(request.path_params["room"], *where)
    return JSONResponse({"removed": dict(zip(("table", "seat"), where, strict=True))})


async def _body(request: Request) -> dict:
    try:
        body = json.loads(await request.body())
    except ValueError:
        raise ProtocolError("not_json") from None
    if not isinstance(body, dict):
        raise ProtocolError("not_json")
    return body


def _all_results(hub) -> list[dict]:
    return [row for name in sorted(hub.store.rooms()) for row in records.results(hub.store, name)]


@guarded
async def results(request: Request) -> JSONResponse:
    return JSONResponse({"results": _all_results(_hub(request))})


@guarded
async def results_csv(request: Request) -> Response:
    text = records.to_csv(_all_results(_hub(request)))
    headers = {"Content-Disposition": 'attachment; filename="classroom-results.csv"'}
    return Response(text, media_type="text/csv", headers=headers)


@guarded
async def game(request: Request) -> JSONResponse:
    """A finished deal as ``Game.to_dict`` (the start and every move), to replay."""
    hub = _hub(request)
    query = request.query_params
    try:
        room, tbl, deal = query["room"], int(query["table"]), int(query["deal"])
    except (KeyError, ValueError):
        raise ProtocolError("bad_field", field="table") from None
    for _t, d, start, result in hub.store.deals(room, tbl):
        if d == deal and result is not None:
            history = [{"player": s, "action": a} for s, a, _ in hub.store.moves(room, tbl, deal)]
            data = {**start, "history": history}
            Game.from_dict(data)  # the stored history replays: check it before handing it out
            return JSONResponse(data)
    raise ProtocolError("no_game")


def routes() -> list[Route]:
    return [
        Route("/board", page),
        Route("/projector", projector_page),
        Route("/api/projector", projector),
        Route("/api/rooms", rooms, methods=["GET"]),
        Route("/api/rooms", create, methods=["POST"]),
        Route("/api/rooms/{room}/start", start, methods=["POST"]),
        Route("/api/rooms/{room}/close", close, methods=["POST"]),
        Route("/api/rooms/{room}/remove", remove, methods=["POST"]),
        Route("/api/results", results),
        Route("/api/results.csv", results_csv),
        Route("/api/game", game),
    ]
