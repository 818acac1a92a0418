"""The FastAPI app: the table page, its JSON API, and the matches view.

Errors a client can cause are answered with a 4xx JSON body ``{"error", "status"}`` whose
message says what was wrong: 400 malformed input (deal, call, agent spec), 404 unknown board,
call or match, 409 a call that the rules or the state of the board do not allow, 413 a
request body over the size limit, 422 a body or parameter that does not fit the schema.
"""

from __future__ import annotations

import json
import logging
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from fastapi import Body, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from bidlab.errors import BidlabError
from bidlab.runtime.stats import fmt
from bidlab.web.agents import AgentCatalog
from bidlab.web.matches import MAX_BOARD_ROWS, MatchLibrary, UnknownMatchError, finite_or_none, report_html
from bidlab.web.meaning import DEFAULT_SAMPLES, MeaningService
from bidlab.web.models import (
    AgentKindOut,
    AgentsOut,
    BoardOut,
    CallIn,
    CardIn,
    ErrorOut,
    InterruptedMatchOut,
    MatchBoardDetailOut,
    MatchBoardOut,
    MatchDetailOut,
    MatchesOut,
    MatchOut,
    MatchTextOut,
    NewBoardIn,
    SearchOut,
    WhyOut,
    board_out,
    match_board_out,
    why_out,
)
from bidlab.web.search import search_explanation
from bidlab.web.spades import spades_router
from bidlab.web.table import BoardStore, NewBoard, WebError

log = logging.getLogger("bidlab.web")

MAX_BODY = 16 * 1024
BOARD_ID_PATTERN = r"^[0-9a-f]{16}$"
STATIC = Path(str(resources.files("bidlab"))) / "web" / "static"


def _error(status: int, message: str, detail: list | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "status": status, "detail": detail}, status_code=status)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with a 413 before the app reads them.

    A declared Content-Length is checked at once; a chunked body is read up to the limit and
    then handed on whole, so the app never sees more than ``limit`` bytes.
    """

    def __init__(self, app, limit: int = MAX_BODY):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                n = int(declared)
            except ValueError:
                return await _error(400, "Content-Length is not a number")(scope, receive, send)
            if n > self.limit:
                return await self._too_large(n, scope, receive, send)
        body, more = b"", True
        while more:
            msg = await receive()
            if msg["type"] == "http.disconnect":
                return
            body += msg.get("body", b"")
            more = msg.get("more_body", False)
            if len(body) > self.limit:
                return await self._too_large(len(body), scope, receive, send)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    async def _too_large(self, n, scope, receive, send):
        return await _error(413, f"request body of {n} bytes is over the limit of {self.limit} bytes")(
            scope, receive, send)


def _validation_message(errors: list[dict]) -> str:
    parts = []
    for e in errors[:5]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body") or "request"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "invalid request: " + "; ".join(parts) + more


def _jsonable_errors(errors) -> list[dict]:
    # Validation errors may carry the offending input (bytes, exceptions); keep what JSON can hold.
    out = []
    for e in list(errors)[:20]:
        out.append({"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", "")),
                    "type": str(e.get("type", ""))})
    return out


BoardId = Annotated[str, PathParam(pattern=BOARD_ID_PATTERN, description="A board id from POST /api/boards.")]
MatchName = Annotated[str, Query(min_length=1, max_length=500, description="A name from /api/matches.")]
PlotName = Annotated[str, Query(min_length=1, max_length=100, description="A plot file name from /api/match.")]
TableName = Annotated[Literal["this", "other"], Query(description="'this' table or the bots' 'other' table.")]
CallIndex = Annotated[int, Query(ge=0, le=1000, description="Index of the call in the auction, from 0.")]

ERRORS = {code: {"model": ErrorOut} for code in (400, 404, 409, 413, 422)}


def create_app(results_dir: str | Path = "results", model_dirs: list[str | Path] | None = None,
               max_boards: int = 200, meaning_samples: int = DEFAULT_SAMPLES, meaning_wait: float = 3.0) -> FastAPI:
    """The web app. ``results_dir`` is the only folder the matches view reads; agent specs that
    load a model may name only files in ``model_dirs`` (default: the models shipped in bidlab).
    "Why?" shows what a call means as the belief net reads it (:mod:`bidlab.search.meaning`,
    ``meaning_samples`` partner hands a reading), waiting up to ``meaning_wait`` seconds for an
    agent's reader to load."""
    catalog = AgentCatalog(model_dirs)
    meanings = MeaningService(samples=meaning_samples)
    store = BoardStore(catalog, capacity=max_boards, meanings=meanings, meaning_wait=meaning_wait)
    library = MatchLibrary(results_dir)

    # /docs serves Swagger UI from files installed with fastapi-offline, not from a CDN, so the
    # schema page works on a machine without internet access.
    app = FastAPIOffline(title="bidlab table", version="1", static_url="/static-docs",
                         description="Bid a bridge board with and against bidlab's bots, and see why they bid.")
    app.state.store = store
    app.state.library = library
    app.state.catalog = catalog

    @app.exception_handler(BidlabError)
    async def bidlab_error(request: Request, exc: BidlabError):
        return _error(getattr(exc, "status", 400), str(exc))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError):
        errors = _jsonable_errors(exc.errors())
        return _error(422, _validation_message(errors), errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        msg = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        if exc.status_code == 404 and msg == "Not Found":
            msg = f"no such page or API endpoint: {request.url.path}"
        return _error(exc.status_code, msg)

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception):
        log.exception("internal error on %s", request.url.path)
        return _error(500, f"internal error: {type(exc).__name__}: {exc}")

    # -- pages ------------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(spades_router(capacity=max_boards))

    # -- table ------------------------------------------------------------------------------

    @app.get("/api/agents", response_model=AgentsOut, summary="Agents that can take a seat")
    def agents():
        return AgentsOut(suggestions=catalog.suggestions(),
                         kinds=[AgentKindOut(prefix=p, summary=s) for p, s in catalog.kinds()],
                         models=[m.name for m in catalog.policies()], default_seats=default_seats())

    def default_seats() -> dict[str, str]:
        """You South; your partner the shipped partner policy if any; the opponents the shipped RL
        policy if any (a person's usual strong opposition), else SAYC."""
        rl = "nn:rl" if any(m.name == "rl" for m in catalog.policies()) else "sayc"
        return {"N": catalog.default_partner(), "E": rl, "S": "you", "W": rl}

    @app.post("/api/boards", response_model=BoardOut, status_code=201, responses=ERRORS,
              summary="Deal a new board; bots bid until it is your turn")
    def new_board(req: Annotated[NewBoardIn, Body()]):
        given, defaults = req.seats, default_seats()
        s = store.create(NewBoard(
            seats=tuple(getattr(given, k) or defaults[k] for k in "NESW"), number=req.number, seed=req.seed,
            deal=req.deal, dealer=req.dealer, vulnerability=req.vulnerability, stand_in=req.stand_in,
            play=req.play, bots_play=req.bots_play))
        with s.lock:
            return board_out(s)


    @app.get("/api/boards/{board_id}", response_model=BoardOut, responses=ERRORS, summary="A board's state")
    def get_board(board_id: BoardId):
        s = store.get(board_id)
        with s.lock:
            return board_out(s)

    @app.post("/api/boards/{board_id}/calls", response_model=BoardOut, responses=ERRORS,
              summary="Make your call; bots answer until your next turn")
    def make_call(board_id: BoardId, body: Annotated[CallIn, Body()]):
        s = store.get(board_id)
        with s.lock:
            s.call(body.call)
            return board_out(s)

    @app.post("/api/boards/{board_id}/undo", response_model=BoardOut, responses=ERRORS,
              summary="Take back your last call (and the bots' calls after it)")
    def undo(board_id: BoardId):
        s = store.get(board_id)
        with s.lock:
            s.undo()
            return board_out(s)

    @app.post("/api/boards/{board_id}/cards", response_model=BoardOut, responses=ERRORS,
              summary="Play your card; bots play double-dummy cards until your next turn")
    def play_card(board_id: BoardId, body: Annotated[CardIn, Body()]):
        s = store.get(board_id)
        with s.lock:
            s.card(body.card)
            return board_out(s)

    @app.post("/api/boards/{board_id}/cards/undo", response_model=BoardOut, responses=ERRORS,
              summary="Take back your last card (and the bots' cards after it)")
    def undo_card(board_id: BoardId):
        s = store.get(board_id)
        with s.lock:
            s.undo_card()
            return board_out(s)

    @app.get("/api/boards/{board_id}/why", response_model=WhyOut, responses=ERRORS,
             summary="Why a bot made a call: its rule, or its policy's top calls")
    def why(board_id: BoardId, index: CallIndex, table: TableName = "this"):
        s = store.get(board_id)
        with s.lock:
            return why_out(s.why(table, index))

    @app.get("/api/boards/{board_id}/search", response_model=SearchOut, responses=ERRORS,
             summary="A search bot's call: candidates, particles and the three hidden hands' beliefs")
    def search(board_id: BoardId, index: CallIndex, table: TableName = "this"):
        s = store.get(board_id)
        with s.lock:
            return search_explanation(s, table, index)

    # -- matches ----------------------------------------------------------------------------

    def match_out(e) -> MatchOut:
        sm = e.summary
        # + 0.0 turns a -0.0 (B's vs par is minus A's, and minus 0 is -0.0) into 0.0.
        text = MatchTextOut(imps_per_board=fmt(sm.imps_per_board, signed=True), standard_error=fmt(sm.standard_error),
                            a_vs_par=fmt(sm.a_vs_par, signed=True), b_vs_par=fmt(sm.b_vs_par, signed=True))
        return MatchOut(name=e.name, agent_a=sm.agent_a, agent_b=sm.agent_b, boards=sm.boards,
                        imps_per_board=sm.imps_per_board + 0.0,
                        standard_error=finite_or_none(sm.standard_error),
                        a_vs_par=sm.a_vs_par + 0.0, b_vs_par=sm.b_vs_par + 0.0, text=text)

    @app.get("/api/matches", response_model=MatchesOut, summary="Match results in the results directory")
    def matches():
        entries, errors = library.scan()
        interrupted = [InterruptedMatchOut(
            name=m.name, agent_a=m.agent_a, agent_b=m.agent_b, boards=m.boards, boards_done=m.boards_done,
            message=f"interrupted: rerun to finish it ({m.rerun_command()})")
            for m in library.interrupted()]
        return MatchesOut(matches=[match_out(e) for e in entries], interrupted=interrupted, errors=errors)


    @app.get("/api/match", response_model=MatchDetailOut, responses=ERRORS,
             summary="One match: summary, a page of its boards, and the report")
    def match(name: MatchName, offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
              limit: Annotated[int, Query(ge=1, le=MAX_BOARD_ROWS)] = 100):
        from urllib.parse import urlencode

        e = library.get(name)
        report_error = None
        try:
            plots, md = library.report(e)
        except Exception as ex:  # a report that cannot be drawn should not hide the summary
            log.exception("report for %s failed", e.name)
            plots, md, report_error = [], "", f"{type(ex).__name__}: {ex}"

        def plot_url(p: str) -> str:
            return f"/api/match/plot?{urlencode({'name': e.name, 'plot': p})}"

        rows = [MatchBoardOut(board=int(r["board"]), open=_room_text(r.get("open")), closed=_room_text(r.get("closed")),
                              imps_a=int(r["imps_a"])) for r in e.records[offset:offset + limit]]
        html = report_html(md, lambda p: plot_url(p) if p in plots else "") if md else ""
        return MatchDetailOut(match=match_out(e), boards=rows, offset=offset, limit=limit,
                              total_boards=len(e.records), plots=[plot_url(p) for p in plots], report=md,
                              report_html=html, report_error=report_error)

    @app.get("/api/match/board", response_model=MatchBoardDetailOut, responses=ERRORS,
             summary="One board of a match: the deal and both tables' auctions")
    def match_board(name: MatchName, board: Annotated[int, Query(ge=1, le=10_000_000)]):
        e = library.get(name)
        rec = next((r for r in e.records if int(r.get("board", -1)) == board), None)
        if rec is None:
            raise UnknownMatchError(f"match {e.name!r} has no board {board} (boards 1-{len(e.records)})")
        return match_board_out(rec, e.summary.agent_a, e.summary.agent_b)

    @app.get("/api/match/plot", responses={**ERRORS, 200: {"content": {"image/png": {}}}},
             response_class=FileResponse, summary="A PNG plot of a match's report")
    def match_plot(name: MatchName, plot: PlotName):
        e = library.get(name)
        return FileResponse(library.plot_path(e, plot), media_type="image/png")

    app.add_middleware(BodyLimit, limit=MAX_BODY)
    return app


def _room_text(room: dict | None) -> str:
    if not room:
        return "?"
    c = room.get("contract")
    return "passed out" if c is None else f"{c} {room.get('declarer', '')}".strip()


__all__ = ["MAX_BODY", "BodyLimit", "WebError", "create_app"]
