"""The ASGI application of ``pbp serve`` (Starlette): server-rendered pages over the store the
bot writes. Everything is read-only but the local forum's posts (through ``LocalForum``, the
path ``pbp post`` takes) and the sessions; every form carries a CSRF token."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache, partial
from importlib.resources import files
from typing import Any
from urllib.parse import quote

import anyio.to_thread
import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pbp.errors import PbpError
from pbp.store.accounts import Accounts
from pbp.web.reader import NotFound, Reader, Viewer
from pbp.web.security import (
    SESSION_COOKIE,
    SESSION_DAYS,
    LoginLimiter,
    Session,
    Signer,
    password_matches,
)

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
STATIC = {  # the only files served: fixed names, read once from the package
    "style.css": "text/css; charset=utf-8",
    "countdown.js": "text/javascript; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
MARKDOWN_CACHE = 512  # rendered replies kept: a few history pages of a few threads
PAGES_AT_ONCE = 8  # below SQLAlchemy's pool of 5 + 10 connections
_ALIGN = re.compile(r' style="text-align:(left|right|center)"')  # a table column's alignment
_SMALL = re.compile(r"<p>\^\((.*?)\)</p>", re.DOTALL)  # the seed line, Reddit's superscript


@lru_cache(maxsize=MARKDOWN_CACHE)
def markdown_html(text: str) -> Markup:
    """A reply's Markdown as HTML, by the parser the tag reader uses (raw HTML never
    passes: it is shown as text). Kept by its text: a summary is rendered once, not at each
    reading of its page (a summary edited, by a correction or a re-close, is a new text)."""
    html = _ALIGN.sub(r' class="align-\1"', _MARKDOWN.render(text))  # no inline style: CSP
    return Markup(_SMALL.sub(r'<p class="fine">\1</p>', html))


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable(["strikethrough", "table"])


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("pbp.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = markdown_html
    env.filters["q"] = lambda s: quote(str(s), safe="")
    env.filters["when"] = lambda at: at.strftime("%Y-%m-%d %H:%M UTC") if at else ""
    env.filters["iso"] = lambda at: at.isoformat() if at else ""
    return env


@dataclass(slots=True)
class Site:
    """What the pages need: the reader, the accounts, the signer and the clock."""

    reader: Reader
    accounts: Accounts
    signer: Signer
    clock: Callable[[], datetime]
    limiter: LoginLimiter = field(default_factory=LoginLimiter)
    config_hint: str = ""  # `--config PATH` for the commands the pages show
    env: jinja2.Environment = field(default_factory=_environment)
    static: dict[str, bytes] = field(default_factory=dict)


def _session(site: Site, request: Request) -> Session:
    found = request.scope.get("pbp.session")
    if isinstance(found, Session):
        return found
    made = site.signer.session(request.cookies.get(SESSION_COOKIE))
    request.scope["pbp.session"] = made
    return made


def _viewer(site: Site, request: Request) -> Viewer:
    session = _session(site, request)
    return Viewer(name=session.user, gm_account=session.gm)


def _finish(site: Site, request: Request, response: Response) -> Response:
    session = _session(site, request)
    if session.changed:
        response.set_cookie(
            SESSION_COOKIE,
            site.signer.cookie(session),
            max_age=SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )
    response.headers["Cache-Control"] = "no-store"
    return response


def _page(
    site: Site, request: Request, template: str, status: int = 200, **values: Any
) -> Response:
    session = _session(site, request)
    html = site.env.get_template(template).render(
        user=session.user, csrf=session.csrf, local=site.reader.local is not None, **values
    )
    return _finish(site, request, HTMLResponse(html, status_code=status))


def _error(site: Site, request: Request, status: int, message: str) -> Response:
    return _page(site, request, "error.html", status=status, message=message)


def _back(site: Site, request: Request, url: str) -> Response:
    return _finish(site, request, RedirectResponse(url, status_code=303))


# -- pages ------------------------------------------------------------------------------------


def index(site: Site, request: Request) -> Response:
    threads = site.reader.threads()
    campaigns: dict[str, list[Any]] = {}
    for t in threads:
        campaigns.setdefault(t.campaign, []).append(t)
    return _page(site, request, "index.html", campaigns=campaigns)


def thread_page(site: Site, request: Request) -> Response:
    key = request.path_params["key"]
    try:
        page = site.reader.thread(key, _viewer(site, request), now=site.clock())
    except NotFound:
        return _error(site, request, 404, "There is no such thread.")
    return _page(site, request, "thread.html", t=page, now=site.clock())


def history_page(site: Site, request: Request) -> Response:
    key = request.path_params["key"]
    try:
        page = int(request.query_params.get("page", "1"))
        history = site.reader.history(key, _viewer(site, request), page=page)
    except (ValueError, NotFound):
        return _error(site, request, 404, "There is no such thread or page.")
    return _page(site, request, "history.html", h=history, config=site.config_hint)


def verify_file(site: Site, request: Request) -> Response:
    key = request.path_params["key"]
    try:
        number = int(request.path_params["number"])
        text = site.reader.verify_text(key, number)
    except (ValueError, NotFound):
        return _error(site, request, 404, "There is no such round.")
    response = PlainTextResponse(text)
    response.headers["Content-Disposition"] = f'attachment; filename="round-{number}.txt"'
    return _finish(site, request, response)


def sheet_page(site: Site, request: Request) -> Response:
    key = request.query_params.get("thread", "")
    name = request.query_params.get("name", "")
    try:
        campaign, text, gm = site.reader.sheet(key, name, _viewer(site, request))
    except NotFound:
        return _error(site, request, 404, "There is no such character in this thread.")
    return _page(
        site, request, "sheet.html", key=key, name=name, campaign=campaign, text=text, gm=gm
    )


def private_page(site: Site, request: Request) -> Response:
    key = request.path_params["key"]
    try:
        messages = site.reader.private(key, _viewer(site, request))
    except NotFound:
        return _error(site, request, 404, "There is no such thread.")
    except PermissionError:
        return _error(site, request, 403, "Only the campaign's GMs read its private messages.")
    return _page(site, request, "private.html", key=key, messages=messages)


def health(site: Site, request: Request) -> Response:
    try:
        site.reader.bot.store.check()
    except PbpError as exc:
        return PlainTextResponse(f"unhealthy: {exc}\n", status_code=503)
    return PlainTextResponse("ok\n")


def static_file(site: Site, request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return PlainTextResponse("not found\n", status_code=404)
    response = Response(site.static[name], media_type=STATIC[name])
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


# -- forms ------------------------------------------------------------------------------------


async def _form(site: Site, request: Request) -> dict[str, str] | Response:
    """The form's fields, if its CSRF token is this session's; else the refusal."""
    form = await request.form()
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    if not _session(site, request).csrf_ok(fields.get("csrf")):
        return _error(site, request, 403, "This form has expired: go back, reload and retry.")
    return fields


def login_page(site: Site, request: Request) -> Response:
    return _page(site, request, "login.html", problem=None, name="")


async def login(site: Site, request: Request) -> Response:
    fields = await _form(site, request)
    if isinstance(fields, Response):
        return fields
    name = fields.get("name", "").strip()[:100]
    password = fields.get("password", "")[:1000]
    address = f"ip:{request.client.host if request.client else '?'}"
    account_key = f"name:{name.casefold()}"
    if site.limiter.blocked(address, account_key):
        return _page(site, request, "login.html", status=429, name=name,
                     problem="Too many failed sign-ins: wait a few minutes.")  # fmt: skip
    account = await run_in_threadpool(site.accounts.get, name) if name else None
    stored = account.password_hash if account is not None else None
    ok = await run_in_threadpool(password_matches, stored, password)
    if not ok or account is None:
        site.limiter.failed(address, account_key)
        return _page(site, request, "login.html", status=401, name=name,
                     problem="That name and password do not match an account.")  # fmt: skip
    _signed_in(site, request, account.name, gm=account.gm)
    return _back(site, request, "/")


def _signed_in(site: Site, request: Request, user: str | None, *, gm: bool) -> None:
    """A new session (a new CSRF token too) for ``user``."""
    session = Session(user=user, gm=gm, changed=True)
    request.scope["pbp.session"] = session


async def logout(site: Site, request: Request) -> Response:
    fields = await _form(site, request)
    if isinstance(fields, Response):
        return fields
    _signed_in(site, request, None, gm=False)
    return _back(site, request, "/")


def link_page(site: Site, request: Request) -> Response:
    token = request.query_params.get("token", "")
    found = site.signer.read_link(token)
    if found is None:
        return _error(site, request, 403, "This sign-in link is not valid (or over an hour old).")
    response = _page(site, request, "link.html", gm=found[0], token=token)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


async def link(site: Site, request: Request) -> Response:
    fields = await _form(site, request)
    if isinstance(fields, Response):
        return fields
    found = site.signer.read_link(fields.get("token", ""))
    if found is None:
        return _error(site, request, 403, "This sign-in link is not valid (or over an hour old).")
    gm, nonce = found
    if not await run_in_threadpool(site.accounts.spend_link, nonce, at=site.clock()):
        return _error(site, request, 403, "This sign-in link was used already.")
    # the name's GM rights come from the campaigns that list it as a GM
    _signed_in(site, request, gm, gm=False)
    return _back(site, request, "/")


def _writer(site: Site, request: Request) -> tuple[str, Any] | Response:
    user = _session(site, request).user
    local = site.reader.local
    if local is None:
        return _error(site, request, 404, "Posts are written on the forum itself.")
    if user is None:
        return _error(site, request, 403, "Sign in to write.")
    return user, local


async def new_post(site: Site, request: Request) -> Response:
    fields = await _form(site, request)
    if isinstance(fields, Response):
        return fields
    writer = _writer(site, request)
    if isinstance(writer, Response):
        return writer
    user, local = writer
    thread, body = fields.get("thread", ""), fields.get("body", "")
    known = {t.key for t in await run_in_threadpool(site.reader.threads)}
    if thread not in known:
        return _error(site, request, 404, "There is no such thread.")
    if not body.strip():
        return _back(site, request, f"/thread/{quote(thread, safe='')}")
    try:
        made = await run_in_threadpool(
            partial(local.post, thread=thread, author=user, body=body, at=site.clock())
        )
    except PbpError as exc:
        return _error(site, request, 400, str(exc))
    return _back(site, request, f"/thread/{quote(thread, safe='')}#{quote(made.id, safe='')}")


def _own_post(site: Site, request: Request, user: str, local: Any, post_id: str) -> Any:
    post = local.get(post_id)
    if post is None or post.deleted or post.reply_key is not None:
        return _error(site, request, 404, "There is no such post.")
    if post.author.casefold() != user.casefold():
        return _error(site, request, 403, "Only its author edits or deletes a post.")
    return post


def edit_page(site: Site, request: Request) -> Response:
    writer = _writer(site, request)
    if isinstance(writer, Response):
        return writer
    post = _own_post(site, request, *writer, request.path_params["post"])
    if isinstance(post, Response):
        return post
    return _page(site, request, "edit.html", post=post)


async def _posted_on_own(
    site: Site, request: Request
) -> tuple[dict[str, str], Any, Any] | Response:
    """A form sent about the writer's own post: its fields, the local forum and the post; or
    the refusal (a bad CSRF token, nobody signed in, someone else's post)."""
    fields = await _form(site, request)
    if isinstance(fields, Response):
        return fields
    writer = _writer(site, request)
    if isinstance(writer, Response):
        return writer
    user, local = writer
    post = await run_in_threadpool(
        _own_post, site, request, user, local, request.path_params["post"]
    )
    if isinstance(post, Response):
        return post
    return fields, local, post


async def edit_post(site: Site, request: Request) -> Response:
    sent = await _posted_on_own(site, request)
    if isinstance(sent, Response):
        return sent
    fields, local, post = sent
    body = fields.get("body", "")
    try:
        await run_in_threadpool(partial(local.edit, post.id, body=body, at=site.clock()))
    except PbpError as exc:
        return _error(site, request, 400, str(exc))
    return _back(site, request, f"/thread/{quote(post.thread, safe='')}#{quote(post.id, safe='')}")


async def delete_post(site: Site, request: Request) -> Response:
    sent = await _posted_on_own(site, request)
    if isinstance(sent, Response):
        return sent
    _, local, post = sent
    await run_in_threadpool(partial(local.delete, post.id, at=site.clock()))
    return _back(site, request, f"/thread/{quote(post.thread, safe='')}")


class Headers:
    """The headers of every answer: the Content-Security-Policy and its companions."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = {
                    b"content-security-policy": CSP.encode(),
                    b"x-content-type-options": b"nosniff",
                    b"x-frame-options": b"DENY",
                    b"referrer-policy": b"same-origin",
                }
                headers += [(k, v) for k, v in extra.items() if k not in names]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, sending)


def create_app(site: Site) -> Starlette:
    """The application over ``site``."""
    web = files("pbp.web") / "static"
    site.static = {name: (web / name).read_bytes() for name in STATIC}

    def bound(handler: Callable[..., Any]) -> Callable[..., Any]:
        if _is_async(handler):

            async def run(request: Request) -> Response:
                result: Response = await handler(site, request)
                return result

            return run

        def call(request: Request) -> Response:
            result: Response = handler(site, request)
            return result

        return call

    routes = [
        Route("/", bound(index)),
        Route("/health", bound(health)),
        Route("/static/{name}", bound(static_file)),
        Route("/thread/{key}", bound(thread_page)),
        Route("/thread/{key}/rounds", bound(history_page)),
        Route("/thread/{key}/rounds/{number}.txt", bound(verify_file)),
        Route("/thread/{key}/private", bound(private_page)),
        Route("/sheet", bound(sheet_page)),
        Route("/login", bound(login_page), methods=["GET"]),
        Route("/login", bound(login), methods=["POST"]),
        Route("/logout", bound(logout), methods=["POST"]),
        Route("/link", bound(link_page), methods=["GET"]),
        Route("/link", bound(link), methods=["POST"]),
        Route("/post", bound(new_post), methods=["POST"]),
        Route("/post/{post}/edit", bound(edit_page), methods=["GET"]),
        Route("/post/{post}/edit", bound(edit_post), methods=["POST"]),
        Route("/post/{post}/delete", bound(delete_post), methods=["POST"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        # as many pages at once as the store's connection pool holds: the others wait their
        # turn here, never for a connection (whose wait would time out under a crowd)
        anyio.to_thread.current_default_thread_limiter().total_tokens = PAGES_AT_ONCE
        yield

    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(Headers)
    return app


def _is_async(handler: Callable[..., Any]) -> bool:
    import inspect

    return inspect.iscoroutinefunction(handler)
