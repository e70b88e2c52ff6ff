"""The teacher's board: an HTML page for the projector and the key-protected JSON behind it.

The page itself holds no secret; it reads the key from the address's fragment (``#key=``),
which a browser never sends to the server, so the key stays out of the server's logs, and
sends it in an ``Authorization`` header. The board shows the public view of every table;
``?open=1`` adds every hand, for the teacher's eyes.
"""

from __future__ import annotations

import json
import secrets
from importlib import resources

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..display.log_words import worded
from ..engine.game import Game
from ..errors import RuleError
from ..i18n import LANGUAGES
from ..i18n import table as locale_table
from . import records, views
from .protocol import ROOM, ProtocolError, error
from .rooms import RoomConfig


def _hub(request: Request):
    return request.app.state.hub


def _authorized(request: Request) -> bool:
    header = request.headers.get("authorization", "")
    key = header.removeprefix("Bearer ").strip()
    return bool(key) and secrets.compare_digest(key, _hub(request).key)


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


async def page(request: Request) -> HTMLResponse:
    lang = _lang(request)
    # The board's own labels, the card names for the cards' accessible text, and the table's
    # own words for a kind of meld (the log comes in words, from ``table_record``).
    wanted = ("classroom.board.", "card.name", "card.rank.", "card.suit.", "ui.kind.")
    labels = {k: v for k, v in locale_table(lang).items() if k.startswith(wanted)}
    html = resources.files(__package__).joinpath("board.html").read_text("utf-8")
    html = html.replace("__LANG__", lang).replace("__LABELS__", json.dumps(labels))
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


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


@guarded
async def rooms(request: Request) -> JSONResponse:
    hub = _hub(request)
    open_hands = request.query_params.get("open") == "1"
    lang = _lang(request)
    out = []
    for name in sorted(hub.store.rooms()):
        room = hub.room(name)
        for index in sorted({row.tbl for row in hub.store.seats(name)}):
            room.table(index)
        tables = [table_record(hub, t, open_hands, lang) for _, t in sorted(room.tables.items())]
        rows = records.results(hub.store, name)
        config = {k: v for k, v in room.config.to_dict().items() if k != "layouts"}
        finished = bool(tables) and all(t["finished"] for t in tables if any(t["seats"]))
        config["seed"] = config["seed"] if finished else None  # shown once it can leak nothing
        out.append(
            {
                "room": name,
                "finished": finished,
                "config": config,
                "tables": tables,
                "standings": records.standings(rows),
            }
        )
    return JSONResponse({"rooms": out})


@guarded
async def create(request: Request) -> JSONResponse:
    hub = _hub(request)
    try:
        body = json.loads(await request.body())
    except ValueError:
        raise ProtocolError("not_json") from None
    if not isinstance(body, dict) or not isinstance(body.get("room"), str):
        raise ProtocolError("bad_field", field="room")
    if not ROOM.match(body["room"]):
        raise ProtocolError("bad_field", field="room")
    config = RoomConfig.read(body.get("config", {}))
    hub.create_room(body["room"], config)
    return JSONResponse({"room": body["room"]})


@guarded
async def start(request: Request) -> JSONResponse:
    tables = await _hub(request).start_room(request.path_params["room"])
    return JSONResponse({"started": tables})


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
        Route("/api/rooms", rooms, methods=["GET"]),
        Route("/api/rooms", create, methods=["POST"]),
        Route("/api/rooms/{room}/start", start, methods=["POST"]),
        Route("/api/results", results),
        Route("/api/results.csv", results_csv),
        Route("/api/game", game),
    ]
