"""A fake Reddit that real praw talks to over plain HTTP on 127.0.0.1 (stdlib only).

Import it as ``from fake_reddit import ...`` (``tests`` is on the import path through
``pythonpath`` in pyproject.toml). Fixtures built on it live in ``tests/reddit/conftest.py``.

``FakeReddit`` is the model and the server: ``with FakeReddit() as fake:`` serves on
``fake.url``. Tests act as users through its methods (``add_submission``, ``add_comment``,
``add_message``, ``edit_comment``, ``delete_comment``, ``remove_comment``, ``lock``,
``archive``) and inspect it
(``comments_in``, ``comments_by``, ``requests``, ``requests_to``). praw acts as the logged-in
account (``pbp_bot``/``pw`` by default) through the endpoints praw uses:

- ``POST /api/v1/access_token`` (password grant; a wrong password answers 200
  ``{"error": "invalid_grant"}`` as Reddit does), ``GET /api/v1/me``;
- ``GET /r/<sub>[+<sub>...]/comments/`` and ``/r/<sub>/new/`` and ``/user/<name>/comments/``:
  newest first, ``limit`` (default 25, at most 100), ``after``/``before`` fullnames, at most
  ``listing_cap`` (1000) items deep. A cursor that is not in the listing (e.g. a deleted
  comment) gives an empty page. Deleted and removed comments leave these listings;
- ``GET /comments/<id>/`` -> ``[submission Listing, comment tree Listing]``: per level at most
  ``tree_limit`` (200) children, the rest in a ``more`` object (kind ``more``, ``id``/``name``
  of its first child, ``children`` = the ids of the remaining siblings, ``count`` = those and all
  their descendants); below ``depth_limit`` (10) levels a "continue this thread" ``more``
  (``count`` 0, ``id`` ``_``, ``name`` ``t1__``), which praw loads through
  ``GET /comments/<id>/_/<comment id>`` (also used by ``Comment.refresh``, with ``context``).
  Order: ``sort=new`` newest first, any other sort oldest first. A deleted or removed comment
  stays in the tree as ``[deleted]``/``[removed]`` (author ``[deleted]``) while it has replies
  to show, and disappears otherwise;
- ``POST /api/morechildren/`` -> the asked comments and their subtrees, flat, parents first;
  at most 100 of the asked ids are expanded, the rest come back as a new ``more``;
- ``GET /api/info/?id=`` (at most 100 fullnames, else 400; unknown ones are left out);
- ``POST /api/compose/`` (``to``, ``subject``, ``text``; a private message from the logged-in
  account; ``NO_SUBJECT``, ``NO_TEXT``, ``TOO_LONG`` over 10000 characters, ``USER_DOESNT_EXIST``
  for a name in ``missing_users``), ``GET /message/sent/`` (the account's sent messages,
  newest first, as ``t4`` things) and ``GET /message/inbox/``; tests read every message with
  ``messages_to``;
- ``POST /api/comment/``, ``/api/editusertext/`` (author only, else 403), ``/api/del/``. A
  refused comment answers 200 with Reddit's error list: ``THREAD_LOCKED``, ``TOO_OLD``
  (archived), ``DELETED_COMMENT``, ``DELETED_LINK``, ``NO_TEXT``, ``TOO_LONG`` (over 10000
  characters), and ``RATELIMIT`` when a fault says so (the codes are Reddit's; the messages, and
  the 404 for an unknown ``thing_id``, are this fake's guesses).
- Anything else answers 404; a request without a valid token 401 (``www-authenticate`` says
  ``invalid_token``); ``/r/<names>/`` with no known subreddit a 302 to the search page, as
  Reddit does (prawcore raises ``Redirect``).

Every answer carries ``x-ratelimit-remaining``/``-used``/``-reset`` (settable attributes; the
defaults make prawcore's limiter never sleep). Faults (``inject``, ``chaos``) never touch the
token endpoint. Fault names: ``"500"``, ``"502"``, any other status code as digits; ``"429"``
(with ``Retry-After``: ``retry_after``, or ``ratelimit_reset`` when that is None, and 0
remaining); ``"timeout"`` (hold ``timeout_hold`` seconds, then close
without answering; the request is not performed); ``"commit_then_502"`` (or any
``commit_then_<status>``: perform, then answer that status); ``"commit_then_timeout"``;
``"slow"`` (perform, answer after ``timeout_hold``); ``"ratelimit"`` (200 with a ``RATELIMIT``
error, message settable per fault). What praw 8.0.3 / prawcore 4.0.0 make of them:

- 500/502/503/504 and timeouts are retried by prawcore (3 attempts in all, sleeping between
  them); when all fail: ``prawcore.exceptions.ServerError`` (5xx) or
  ``prawcore.exceptions.RequestException`` (``original_exception`` a ``ReadTimeout``);
- 429: ``prawcore.exceptions.TooManyRequests`` at once, no retry (``.retry_after``); prawcore's
  limiter then waits ``ratelimit_reset`` seconds before the next request;
- 401 (``expire_tokens``): prawcore fetches a new token and retries (one retry sleep);
- 403: ``prawcore.exceptions.Forbidden``; 404: ``prawcore.exceptions.NotFound``;
- Reddit errors in a 200 answer: ``praw.exceptions.RedditAPIException`` (``.items[i]
  .error_type``); a ``RATELIMIT`` saying at most ``ratelimit_seconds`` (5) is slept out and
  retried by praw itself, up to 3 attempts.
- ``commit_then_502``/``commit_then_timeout`` once on ``/api/comment``: prawcore retries, the
  retry commits again, praw returns the second comment: the thread holds the reply twice.

An exception inside the fake is answered with 500 and kept in ``internal_errors``.

Helpers for any test using praw: ``write_praw_ini``, ``use_praw_ini`` (praw caches the first
praw.ini it reads for the whole process; this resets that), ``patch_sleeps`` (prawcore's and
praw's sleeps recorded instead of slept) and ``patch_timeout`` (praw 8.0.3 ignores its
``timeout`` setting: prawcore always uses its own 16 s default, patched here).
"""

from __future__ import annotations

import base64
import html
import json
import random
import re
import secrets
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

Json = dict[str, Any]
MAX_BODY = 10_000
TOKEN_PATH = "/api/v1/access_token"
DEFAULT_RATELIMIT_MESSAGE = "you are doing that too much. try again in 5 minutes."

# -- the model ---------------------------------------------------------------------------------


def to_base36(number: int) -> str:
    """``number`` in Reddit's base 36 (digits, then lower-case letters)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


@dataclass
class FakeSubmission:
    """A self post."""

    id: str
    subreddit: str
    author: str
    title: str
    selftext: str
    created_utc: float
    seq: int
    locked: bool = False
    archived: bool = False
    deleted: bool = False
    edited: float | None = None

    @property
    def fullname(self) -> str:
        return f"t3_{self.id}"


@dataclass
class FakeComment:
    """A comment; ``body`` keeps the last text even after a delete (the JSON hides it)."""

    id: str
    author: str
    body: str
    created_utc: float
    link_id: str
    parent_id: str
    subreddit: str
    seq: int
    edited: float | None = None
    deleted: bool = False
    removed: bool = False

    @property
    def fullname(self) -> str:
        return f"t1_{self.id}"

    @property
    def submission_id(self) -> str:
        return self.link_id.removeprefix("t3_")

    @property
    def gone(self) -> bool:
        """Deleted by its author or removed by a moderator."""
        return self.deleted or self.removed


@dataclass
class FakeMessage:
    """A private message."""

    id: str
    author: str
    dest: str
    subject: str
    body: str
    created_utc: float
    seq: int

    @property
    def fullname(self) -> str:
        return f"t4_{self.id}"


@dataclass(frozen=True)
class RequestRecord:
    """One request as the fake saw it, with the status it answered (None: no answer sent)."""

    method: str
    path: str
    params: dict[str, str]
    form: dict[str, str]
    user: str | None
    status: int | None
    fault: str | None


@dataclass
class _Rule:
    method: str | None
    prefix: str
    fault: str
    times: int | None
    message: str | None


@dataclass
class _Answer:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    hold: float = 0.0  # seconds to sit on the answer before sending it
    silent: bool = False  # after the hold, close without answering (the client timed out)


class RedditError(Exception):
    """An error answer raised inside an endpoint: ``errors`` (200 + json errors) or a status."""

    def __init__(self, *, status: int = 200, errors: list[list[str]] | None = None) -> None:
        super().__init__(status, errors)
        self.status = status
        self.errors = errors


class FakeReddit:
    """The model and the HTTP server; see the module docstring."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] | None = None,
        client_id: str = "cid",
        client_secret: str = "sec",
        accounts: dict[str, str] | None = None,
    ) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.accounts: dict[str, str] = dict(accounts or {"pbp_bot": "pw"})
        self.tree_limit = 200
        self.depth_limit: int | None = 10
        self.listing_cap = 1000
        self.morechildren_limit = 100
        self.timeout_hold = 2.0
        self.ratelimit_remaining = 996.0
        self.ratelimit_used = 4
        self.ratelimit_reset = 60
        self.retry_after: int | None = None  # a 429's Retry-After (None: ratelimit_reset)
        self.ratelimit_message = DEFAULT_RATELIMIT_MESSAGE
        self._clock = clock or time.time
        self._frozen: float | None = None
        self._lock = threading.RLock()
        self._subreddits: dict[str, str] = {}  # lower-case -> display name
        self._submissions: dict[str, FakeSubmission] = {}
        self._comments: dict[str, FakeComment] = {}
        self._messages: list[FakeMessage] = []
        self.missing_users: set[str] = set()  # names /api/compose answers USER_DOESNT_EXIST
        self._kids: dict[str, list[FakeComment]] = {}  # parent fullname -> its comments
        self._seq = 0
        self._tokens: dict[str, str] = {}  # access token -> user name
        self._log: list[RequestRecord] = []
        self.internal_errors: list[str] = []  # exceptions inside the fake, answered with 500
        self._rules: list[_Rule] = []
        self._chaos: tuple[random.Random, dict[str, float]] | None = None
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- server life ---------------------------------------------------------------------------

    def start(self) -> FakeReddit:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.daemon_threads = True
        server.fake = self  # type: ignore[attr-defined]
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # releases every held (timed-out) answer
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeReddit:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._server is not None, "start() the fake first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    # -- clock ---------------------------------------------------------------------------------

    def now(self) -> float:
        return self._frozen if self._frozen is not None else self._clock()

    def set_time(self, utc: float) -> None:
        """Freeze the clock at ``utc`` (Unix seconds)."""
        self._frozen = utc

    def advance(self, seconds: float) -> None:
        """Move the clock on (freezing it if it was running)."""
        self._frozen = self.now() + seconds

    # -- acting as users -----------------------------------------------------------------------

    def add_account(self, name: str, password: str) -> None:
        self.accounts[name] = password

    def expire_tokens(self) -> None:
        """Forget every access token: the next request with one answers 401."""
        with self._lock:
            self._tokens.clear()

    def add_subreddit(self, name: str) -> str:
        with self._lock:
            return self._subreddits.setdefault(name.lower(), name)

    def add_submission(
        self,
        subreddit: str,
        author: str,
        title: str,
        selftext: str = "",
        *,
        created_utc: float | None = None,
    ) -> str:
        with self._lock:
            sub = self.add_subreddit(subreddit)
            seq = self._next_seq()
            sid = to_base36(36**5 + seq)
            self._submissions[sid] = FakeSubmission(
                id=sid, subreddit=sub, author=author, title=title, selftext=selftext,
                created_utc=self.now() if created_utc is None else created_utc, seq=seq,
            )  # fmt: skip
            return sid

    def add_comment(
        self, author: str, parent_fullname: str, body: str, created_utc: float | None = None
    ) -> str:
        """Post a comment as ``author`` (no lock or length checks: a test acting as a user)."""
        with self._lock:
            submission = self._submission_of(parent_fullname)
            seq = self._next_seq()
            cid = to_base36(36**6 + seq)
            comment = FakeComment(
                id=cid, author=author, body=body,
                created_utc=self.now() if created_utc is None else created_utc,
                link_id=submission.fullname, parent_id=parent_fullname,
                subreddit=submission.subreddit, seq=seq,
            )  # fmt: skip
            self._comments[cid] = comment
            self._kids.setdefault(parent_fullname, []).append(comment)
            return cid

    def add_message(self, author: str, dest: str, subject: str, body: str) -> str:
        """A private message from ``author`` to ``dest`` (the bot's account from another
        client, say: it shows among the account's sent messages)."""
        with self._lock:
            seq = self._next_seq()
            message = FakeMessage(
                id=to_base36(50_000 + seq),
                author=author,
                dest=dest,
                subject=subject,
                body=body,
                created_utc=self.now(),
                seq=seq,
            )
            self._messages.append(message)
            return message.id

    def edit_comment(self, comment_id: str, body: str) -> None:
        with self._lock:
            comment = self._comments[comment_id]
            comment.body, comment.edited = body, self.now()

    def delete_comment(self, comment_id: str) -> None:
        with self._lock:
            self._comments[comment_id].deleted = True

    def remove_comment(self, comment_id: str) -> None:
        """A moderator removes the comment (it reads ``[removed]``)."""
        with self._lock:
            self._comments[comment_id].removed = True

    def lock(self, submission_id: str, locked: bool = True) -> None:
        with self._lock:
            self._submissions[submission_id].locked = locked

    def archive(self, submission_id: str) -> None:
        with self._lock:
            self._submissions[submission_id].archived = True

    # -- inspection ----------------------------------------------------------------------------

    def submission(self, submission_id: str) -> FakeSubmission:
        with self._lock:
            return replace(self._submissions[submission_id])

    def comment(self, comment_id: str) -> FakeComment:
        with self._lock:
            return replace(self._comments[comment_id])

    def comments_in(self, submission_id: str) -> list[FakeComment]:
        """Every comment of a submission (deleted ones too), oldest first."""
        with self._lock:
            return [replace(c) for c in self._ordered() if c.submission_id == submission_id]

    def comments_by(self, author: str) -> list[FakeComment]:
        """Every comment of an author (deleted ones too), oldest first."""
        with self._lock:
            return [replace(c) for c in self._ordered() if c.author == author]

    def messages_to(self, name: str) -> list[FakeMessage]:
        """Every private message sent to ``name`` (any case), oldest first."""
        with self._lock:
            return [replace(m) for m in self._messages if m.dest.lower() == name.lower()]

    def message_json(self, m: FakeMessage) -> Json:
        data: Json = {
            "id": m.id, "name": m.fullname, "author": m.author, "dest": m.dest,
            "subject": m.subject, "body": m.body, "body_html": _html(m.body),
            "created_utc": m.created_utc, "created": m.created_utc, "context": "",
            "first_message": None, "first_message_name": None, "parent_id": None,
            "replies": "", "subreddit": None, "was_comment": False, "new": True,
            "distinguished": None, "likes": None, "num_comments": None,
        }  # fmt: skip
        return {"kind": "t4", "data": data}

    @property
    def requests(self) -> list[RequestRecord]:
        with self._lock:
            return list(self._log)

    def requests_to(self, prefix: str, method: str | None = None) -> int:
        """How many requests had a path starting with ``prefix`` (and this method)."""
        return sum(
            1
            for r in self.requests
            if r.path.startswith(prefix) and (method is None or r.method == method.upper())
        )

    def clear_log(self) -> None:
        with self._lock:
            self._log.clear()

    # -- faults --------------------------------------------------------------------------------

    def inject(
        self,
        method: str | None,
        path_prefix: str,
        fault: str,
        times: int | None = 1,
        *,
        message: str | None = None,
    ) -> None:
        """The next ``times`` requests (None: all) matching answer with ``fault``.

        ``method`` None matches any method; ``message`` is the ``ratelimit`` fault's text.
        """
        _check_fault(fault)
        with self._lock:
            upper = method.upper() if method else None
            self._rules.append(_Rule(upper, path_prefix, fault, times, message))

    def chaos(self, seed: int, rates: dict[str, float]) -> None:
        """Each request (but the token's) draws a fault with these probabilities."""
        for fault in rates:
            _check_fault(fault)
        with self._lock:
            self._chaos = (random.Random(seed), dict(rates))

    def calm(self) -> None:
        """No more faults: drop injected ones and chaos."""
        with self._lock:
            self._rules.clear()
            self._chaos = None

    def _pick_fault(self, method: str, path: str) -> tuple[str | None, str | None]:
        if path == TOKEN_PATH:
            return None, None
        for rule in self._rules:
            if (rule.method in (None, method)) and path.startswith(rule.prefix):
                if rule.times is not None:
                    rule.times -= 1
                    if rule.times <= 0:
                        self._rules.remove(rule)
                return rule.fault, rule.message
        if self._chaos is not None:
            rng, rates = self._chaos
            draw, total = rng.random(), 0.0
            for fault, rate in rates.items():
                total += rate
                if draw < total:
                    return fault, None
        return None, None

    # -- request handling (called by the handler threads) --------------------------------------

    def _serve(
        self, method: str, raw_path: str, params: dict[str, str], form: dict[str, str],
        authorization: str | None,
    ) -> _Answer:  # fmt: skip
        path = raw_path if raw_path == "/" else raw_path.rstrip("/")
        with self._lock:
            user = self._user_of(authorization)
            fault, message = self._pick_fault(method, raw_path)
            try:
                answer = self._answer(
                    method, path, params, form, authorization, user, fault, message
                )
            except Exception as bug:  # a bug of the fake (or a request it cannot read)
                self.internal_errors.append(f"{method} {raw_path}: {bug!r}")
                answer = _error_status(500)
            status = None if answer.silent else answer.status
            self._log.append(RequestRecord(method, raw_path, params, form, user, status, fault))
        return answer

    def _answer(
        self, method: str, path: str, params: dict[str, str], form: dict[str, str],
        authorization: str | None, user: str | None, fault: str | None, message: str | None,
    ) -> _Answer:  # fmt: skip
        if fault == "timeout":
            return _Answer(200, {}, hold=self.timeout_hold, silent=True)
        if fault == "429":
            return _Answer(
                429,
                {"message": "Too Many Requests", "error": 429},
                {
                    "Retry-After": str(
                        self.ratelimit_reset if self.retry_after is None else self.retry_after
                    ),
                    "x-ratelimit-remaining": "0",
                },
            )
        if fault == "ratelimit":
            error = ["RATELIMIT", message or self.ratelimit_message, "ratelimit"]
            return _Answer(200, {"json": {"errors": [error]}})
        if fault is not None and fault.isdigit():
            return _error_status(int(fault))
        answer = self._route(method, path, params, form, authorization, user)
        if fault == "commit_then_timeout":
            return replace(answer, hold=self.timeout_hold, silent=True)
        if fault == "slow":
            return replace(answer, hold=self.timeout_hold)
        if fault is not None and fault.startswith("commit_then_"):
            return _error_status(int(fault.removeprefix("commit_then_")))
        return answer

    def _route(
        self, method: str, path: str, params: dict[str, str], form: dict[str, str],
        authorization: str | None, user: str | None,
    ) -> _Answer:  # fmt: skip
        if path == TOKEN_PATH and method == "POST":
            return self._token(form, authorization)
        if user is None:
            return _error_status(401)
        for route_method, pattern, endpoint in _ROUTES:
            match = pattern.fullmatch(path)
            if match and route_method == method:
                try:
                    body = endpoint(self, user, params, form, *match.groups())
                except RedditError as refused:
                    if refused.errors is not None:
                        return _Answer(200, {"json": {"errors": refused.errors}})
                    return _error_status(refused.status)
                return _Answer(200, body)
        return _error_status(404)

    def _user_of(self, authorization: str | None) -> str | None:
        if not authorization or not authorization.lower().startswith("bearer "):
            return None
        return self._tokens.get(authorization.split(" ", 1)[1])

    def _token(self, form: dict[str, str], authorization: str | None) -> _Answer:
        expected = base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
        if authorization != f"Basic {expected}":
            return _error_status(401)
        name, password = form.get("username", ""), form.get("password", "")
        if form.get("grant_type") != "password" or self.accounts.get(name) != password:
            return _Answer(200, {"error": "invalid_grant"})
        token = secrets.token_hex(12)
        self._tokens[token] = name
        return _Answer(
            200, {"access_token": token, "token_type": "bearer", "expires_in": 3600, "scope": "*"}
        )

    # -- model helpers -------------------------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def _ordered(self) -> list[FakeComment]:
        return sorted(self._comments.values(), key=lambda c: (c.created_utc, c.seq))

    def _submission_of(self, fullname: str) -> FakeSubmission:
        kind, _, thing = fullname.partition("_")
        if kind == "t3" and thing in self._submissions:
            return self._submissions[thing]
        if kind == "t1" and thing in self._comments:
            return self._submissions[self._comments[thing].submission_id]
        raise KeyError(f"no such parent: {fullname}")

    def _children(self, parent_fullname: str, sort: str) -> list[FakeComment]:
        """The comments under a parent that a tree shows (gone ones only with replies)."""
        kids = sorted(self._kids.get(parent_fullname, []), key=lambda c: (c.created_utc, c.seq))
        kids = [c for c in kids if not c.gone or self._children(c.fullname, sort)]
        return kids[::-1] if sort == "new" else kids

    def _descendants(self, comment: FakeComment, sort: str) -> int:
        return sum(1 + self._descendants(c, sort) for c in self._children(comment.fullname, sort))

    # -- JSON shapes ---------------------------------------------------------------------------

    def _user_id(self, name: str) -> str:
        return to_base36(zlib.crc32(name.encode()))

    def submission_json(self, s: FakeSubmission) -> Json:
        live = [c for c in self._comments.values() if c.link_id == s.fullname and not c.gone]
        permalink = f"/r/{s.subreddit}/comments/{s.id}/{_slug(s.title)}/"
        return {
            "kind": "t3",
            "data": {
                "id": s.id, "name": s.fullname, "title": s.title,
                "selftext": "[deleted]" if s.deleted else s.selftext,
                "selftext_html": _html(s.selftext), "author": _author(s.author, s.deleted),
                "author_fullname": f"t2_{self._user_id(s.author)}",
                "subreddit": s.subreddit, "subreddit_id": f"t5_{_slug(s.subreddit)}",
                "subreddit_name_prefixed": f"r/{s.subreddit}", "subreddit_type": "public",
                "created_utc": s.created_utc, "created": s.created_utc,
                "edited": s.edited if s.edited is not None else False,
                "locked": s.locked, "archived": s.archived, "num_comments": len(live),
                "permalink": permalink, "url": f"https://www.reddit.com{permalink}",
                "domain": f"self.{s.subreddit}", "is_self": True, "score": 1, "ups": 1,
                "downs": 0, "upvote_ratio": 1.0, "likes": None, "saved": False,
                "hidden": False, "clicked": False, "over_18": False, "spoiler": False,
                "stickied": False, "distinguished": None, "link_flair_text": None,
                "removed_by_category": "deleted" if s.deleted else None, "num_crossposts": 0,
            },
        }  # fmt: skip

    def comment_json(
        self, c: FakeComment, *, depth: int = 0, replies: Json | str = "", in_listing: bool = False
    ) -> Json:
        s = self._submissions[c.submission_id]
        body = "[removed]" if c.removed else "[deleted]" if c.deleted else c.body
        data: Json = {
            "id": c.id, "name": c.fullname, "author": _author(c.author, c.gone),
            "body": body, "body_html": _html(body),
            "created_utc": c.created_utc, "created": c.created_utc,
            "edited": c.edited if c.edited is not None else False,
            "link_id": c.link_id, "parent_id": c.parent_id, "subreddit": c.subreddit,
            "subreddit_id": f"t5_{_slug(c.subreddit)}",
            "subreddit_name_prefixed": f"r/{c.subreddit}", "subreddit_type": "public",
            "permalink": f"/r/{c.subreddit}/comments/{s.id}/{_slug(s.title)}/{c.id}/",
            "score": 1, "ups": 1, "downs": 0, "likes": None, "saved": False,
            "stickied": False, "distinguished": None, "is_submitter": c.author == s.author,
            "locked": False, "archived": s.archived, "collapsed": c.gone,
            "score_hidden": False, "controversiality": 0, "gilded": 0, "depth": depth,
            "no_follow": True, "send_replies": True, "replies": replies,
        }  # fmt: skip
        if not c.gone:
            data["author_fullname"] = f"t2_{self._user_id(c.author)}"
        if in_listing:
            data.update(
                link_title=s.title, link_author=_author(s.author, s.deleted),
                link_permalink=f"https://www.reddit.com/r/{s.subreddit}/comments/{s.id}/",
                link_url=f"https://www.reddit.com/r/{s.subreddit}/comments/{s.id}/",
                over_18=False,
            )  # fmt: skip
        return {"kind": "t1", "data": data}

    def _thing_json(self, thing: FakeComment | FakeSubmission | FakeMessage) -> Json:
        if isinstance(thing, FakeMessage):
            return self.message_json(thing)
        if isinstance(thing, FakeComment):
            return self.comment_json(thing, in_listing=True)
        return self.submission_json(thing)

    def _tree(self, parent_fullname: str, depth: int, sort: str) -> list[Json]:
        """The rendered children of a parent: comments, then a ``more`` for the rest."""
        kids = self._children(parent_fullname, sort)
        shown, rest = kids[: self.tree_limit], kids[self.tree_limit :]
        out = [self._tree_comment(c, depth, sort) for c in shown]
        if rest:
            out.append(self._more(rest, parent_fullname, depth, sort))
        return out

    def _tree_comment(self, c: FakeComment, depth: int, sort: str) -> Json:
        replies: Json | str = ""
        if self._children(c.fullname, sort):
            if self._too_deep(depth + 1):
                replies = _listing([_continue(c, depth + 1)])
            else:
                replies = _listing(self._tree(c.fullname, depth + 1, sort))
        return self.comment_json(c, depth=depth, replies=replies)

    def _too_deep(self, depth: int) -> bool:
        return self.depth_limit is not None and depth >= self.depth_limit

    def _more(self, rest: list[FakeComment], parent: str, depth: int, sort: str) -> Json:
        count = sum(1 + self._descendants(c, sort) for c in rest)
        data = {"count": count, "name": rest[0].fullname, "id": rest[0].id, "parent_id": parent,
                "depth": depth, "children": [c.id for c in rest]}  # fmt: skip
        return {"kind": "more", "data": data}

    def _flat(self, c: FakeComment, depth: int, sort: str) -> Iterator[Json]:
        """A comment and its subtree, parents first, each with empty ``replies``."""
        yield self.comment_json(c, depth=depth)
        kids = self._children(c.fullname, sort)
        if kids and self._too_deep(depth + 1):
            yield _continue(c, depth + 1)
            return
        for kid in kids[: self.tree_limit]:
            yield from self._flat(kid, depth + 1, sort)
        if kids[self.tree_limit :]:
            yield self._more(kids[self.tree_limit :], c.fullname, depth + 1, sort)

    def _depth(self, c: FakeComment) -> int:
        depth = 0
        while c.parent_id.startswith("t1_"):
            c, depth = self._comments[c.parent_id[3:]], depth + 1
        return depth

    def page(self, things: list[Any], params: dict[str, str]) -> Json:
        """One page of a newest-first listing of comments or submissions."""
        things = things[: self.listing_cap]
        names = [t.fullname for t in things]
        limit = max(1, min(int(params.get("limit") or 25), 100))
        after, before = params.get("after"), params.get("before")
        after_out = before_out = None
        if after or before:
            cursor = after or before
            if cursor not in names:
                return _listing([])
            at = names.index(cursor)
            start, end = (at + 1, at + 1 + limit) if after else (max(0, at - limit), at)
            page = things[start:end]
            if page and (before or end < len(things)):
                after_out = page[-1].fullname
            if page and (after or start > 0):
                before_out = page[0].fullname
        else:
            page = things[:limit]
            after_out = page[-1].fullname if len(things) > limit else None
        return _listing([self._thing_json(t) for t in page], after=after_out, before=before_out)


# -- endpoints (called with the model lock held) ----------------------------------------------


def _me(fake: FakeReddit, user: str, _params: dict[str, str], _form: dict[str, str]) -> Json:
    return {
        "name": user, "id": fake._user_id(user), "created_utc": 1_600_000_000.0,
        "comment_karma": 1, "link_karma": 1, "total_karma": 2, "is_suspended": False,
        "is_employee": False, "is_mod": False, "is_gold": False, "has_verified_email": True,
        "verified": True, "over_18": False, "icon_img": "", "features": {},
    }  # fmt: skip


def _subreddit_comments(
    fake: FakeReddit, _user: str, params: dict[str, str], _form: dict[str, str], subs: str
) -> Json:
    wanted = _known_subreddits(fake, subs)
    live = [c for c in fake._ordered() if c.subreddit in wanted and not c.gone]
    return fake.page(live[::-1], params)


def _subreddit_new(
    fake: FakeReddit, _user: str, params: dict[str, str], _form: dict[str, str], subs: str
) -> Json:
    wanted = _known_subreddits(fake, subs)
    posts = [s for s in fake._submissions.values() if s.subreddit in wanted and not s.deleted]
    return fake.page(sorted(posts, key=lambda s: (s.created_utc, s.seq), reverse=True), params)


def _user_comments(
    fake: FakeReddit, _user: str, params: dict[str, str], _form: dict[str, str], name: str
) -> Json:
    mine = [c for c in fake._ordered() if c.author.lower() == name.lower() and not c.deleted]
    return fake.page(mine[::-1], params)


def _submission_tree(
    fake: FakeReddit, _user: str, params: dict[str, str], _form: dict[str, str],
    submission_id: str, focus: str | None = None,
) -> list[Json]:  # fmt: skip
    s = fake._submissions.get(submission_id)
    if s is None:
        raise RedditError(status=404)
    sort = params.get("sort", "confidence")
    head = _listing([fake.submission_json(s)])
    if focus is None:
        return [head, _listing(fake._tree(s.fullname, 0, sort))]
    comment = fake._comments.get(focus)
    if comment is None or comment.submission_id != submission_id:
        raise RedditError(status=404)
    # ``context``: up to 8 ancestors, each showing only the next one down.
    chain, context = [comment], min(int(params.get("context") or 0), 8)
    while len(chain) <= context and chain[-1].parent_id.startswith("t1_"):
        chain.append(fake._comments[chain[-1].parent_id[3:]])
    top = fake._depth(chain[-1])
    node = fake._tree_comment(comment, fake._depth(comment) - top, sort)
    for above in chain[1:]:
        node = fake.comment_json(above, depth=fake._depth(above) - top, replies=_listing([node]))
    return [head, _listing([node])]


def _more_children(
    fake: FakeReddit, _user: str, _params: dict[str, str], form: dict[str, str]
) -> Json:
    sort = form.get("sort", "confidence")
    ids = [i for i in form.get("children", "").split(",") if i]
    expand, later = ids[: fake.morechildren_limit], ids[fake.morechildren_limit :]
    things: list[Json] = []
    for cid in expand:
        comment = fake._comments.get(cid)
        if comment is not None and comment.link_id == form.get("link_id"):
            things.extend(fake._flat(comment, fake._depth(comment), sort))
    rest = [fake._comments[i] for i in later if i in fake._comments]
    if rest:
        things.append(fake._more(rest, rest[0].parent_id, fake._depth(rest[0]), sort))
    return {"json": {"errors": [], "data": {"things": things}}}


def _info(fake: FakeReddit, _user: str, params: dict[str, str], _form: dict[str, str]) -> Json:
    names = [n for n in params.get("id", "").split(",") if n]
    if len(names) > 100:
        raise RedditError(status=400)
    things: list[Json] = []
    for name in names:
        kind, _, thing = name.partition("_")
        if kind == "t1" and thing in fake._comments:
            things.append(fake.comment_json(fake._comments[thing], in_listing=True))
        elif kind == "t3" and thing in fake._submissions:
            things.append(fake.submission_json(fake._submissions[thing]))
    return _listing(things)


def _post_comment(
    fake: FakeReddit, user: str, _params: dict[str, str], form: dict[str, str]
) -> Json:
    parent = form.get("thing_id", "")
    try:
        submission = fake._submission_of(parent)
    except KeyError:
        raise RedditError(status=404) from None
    if submission.deleted:
        raise RedditError(
            errors=[["DELETED_LINK", "the link you are commenting on has been deleted", "parent"]]
        )
    if submission.archived:
        raise RedditError(
            errors=[
                ["TOO_OLD", "that's a piece of history now; it's too late to reply to it", "parent"]
            ]
        )
    if submission.locked:
        raise RedditError(errors=[["THREAD_LOCKED", "Comments are locked.", "parent"]])
    if parent.startswith("t1_") and fake._comments[parent[3:]].gone:
        raise RedditError(errors=[["DELETED_COMMENT", "that comment has been deleted", "parent"]])
    text = _checked_text(form)
    cid = fake.add_comment(user, parent, text)
    comment = fake._comments[cid]
    return _things([fake.comment_json(comment, depth=fake._depth(comment))])


def _edit(fake: FakeReddit, user: str, _params: dict[str, str], form: dict[str, str]) -> Json:
    kind, _, thing = form.get("thing_id", "").partition("_")
    target: FakeComment | FakeSubmission | None = (
        fake._comments.get(thing) if kind == "t1" else fake._submissions.get(thing)
    )
    if target is None:
        raise RedditError(status=404)
    if target.author != user or target.deleted:
        raise RedditError(status=403)
    submission = fake._submission_of(form["thing_id"])
    if submission.archived:
        raise RedditError(errors=[["TOO_OLD", "that's a piece of history now", "parent"]])
    text = _checked_text(form)
    if isinstance(target, FakeComment):
        target.body = text
    else:
        target.selftext = text
    target.edited = fake.now()
    if isinstance(target, FakeComment):
        return _things([fake.comment_json(target, depth=fake._depth(target))])
    return _things([fake.submission_json(target)])


def _delete(fake: FakeReddit, user: str, _params: dict[str, str], form: dict[str, str]) -> Json:
    kind, _, thing = form.get("id", "").partition("_")
    target = fake._comments.get(thing) if kind == "t1" else fake._submissions.get(thing)
    if target is not None and target.author == user:  # Reddit ignores anyone else's, quietly
        target.deleted = True
    return {}


def _compose(fake: FakeReddit, user: str, _params: dict[str, str], form: dict[str, str]) -> Json:
    dest = form.get("to", "")
    if not dest or dest.lower() in {u.lower() for u in fake.missing_users}:
        raise RedditError(errors=[["USER_DOESNT_EXIST", "that user doesn't exist", "to"]])
    if not form.get("subject", "").strip():
        raise RedditError(errors=[["NO_SUBJECT", "please enter a subject", "subject"]])
    text = _checked_text(form)
    seq = fake._next_seq()
    fake._messages.append(
        FakeMessage(
            id=to_base36(50_000 + seq),
            author=user,
            dest=dest,
            subject=form["subject"],
            body=text,
            created_utc=fake.now(),
            seq=seq,
        )
    )
    return {"json": {"errors": []}}  # what Reddit answers: nothing to read back


def _sent(fake: FakeReddit, user: str, params: dict[str, str], _form: dict[str, str]) -> Json:
    mine = [m for m in fake._messages if m.author.lower() == user.lower()]
    return fake.page(mine[::-1], params)


def _inbox(fake: FakeReddit, user: str, params: dict[str, str], _form: dict[str, str]) -> Json:
    mine = [m for m in fake._messages if m.dest.lower() == user.lower()]
    return fake.page(mine[::-1], params)


_ROUTES: list[tuple[str, re.Pattern[str], Callable[..., Any]]] = [
    ("GET", re.compile(r"/api/v1/me"), _me),
    ("GET", re.compile(r"/r/([^/]+)/comments"), _subreddit_comments),
    ("GET", re.compile(r"/r/([^/]+)/new"), _subreddit_new),
    ("GET", re.compile(r"/user/([^/]+)/comments"), _user_comments),
    ("GET", re.compile(r"/comments/([0-9a-z]+)(?:/_/([0-9a-z]+))?"), _submission_tree),
    ("POST", re.compile(r"/api/morechildren"), _more_children),
    ("GET", re.compile(r"/api/info"), _info),
    ("POST", re.compile(r"/api/comment"), _post_comment),
    ("POST", re.compile(r"/api/editusertext"), _edit),
    ("POST", re.compile(r"/api/del"), _delete),
    ("POST", re.compile(r"/api/compose"), _compose),
    ("GET", re.compile(r"/message/sent"), _sent),
    ("GET", re.compile(r"/message/inbox"), _inbox),
]


def _known_subreddits(fake: FakeReddit, subs: str) -> set[str]:
    """The known subreddits of ``a+b``; none known answers like Reddit (a 302 to search)."""
    known = {fake._subreddits[s.lower()] for s in subs.split("+") if s.lower() in fake._subreddits}
    if not known:
        raise RedditError(status=302)
    return known


def _checked_text(form: dict[str, str]) -> str:
    text = form.get("text", "")
    if not text.strip():
        raise RedditError(errors=[["NO_TEXT", "we need something here", "text"]])
    if len(text) > MAX_BODY:
        raise RedditError(errors=[["TOO_LONG", f"this is too long (max: {MAX_BODY})", "text"]])
    return text


def _continue(parent: FakeComment, depth: int) -> Json:
    """The "continue this thread" stub under ``parent``."""
    data = {"count": 0, "name": "t1__", "id": "_", "parent_id": parent.fullname, "depth": depth,
            "children": []}  # fmt: skip
    return {"kind": "more", "data": data}


def _things(things: list[Json]) -> Json:
    return {"json": {"errors": [], "data": {"things": things}}}


def _listing(children: list[Json], *, after: str | None = None, before: str | None = None) -> Json:
    data = {"after": after, "before": before, "dist": len(children), "modhash": "",
            "geo_filter": "", "children": children}  # fmt: skip
    return {"kind": "Listing", "data": data}


def _error_status(status: int) -> _Answer:
    if status == 302:
        return _Answer(302, {}, {"Location": "/subreddits/search.json?q="})
    if status == 401:  # what Reddit says for a missing or expired token
        header = 'Bearer realm="reddit", error="invalid_token"'
        return _Answer(401, {"message": "Unauthorized", "error": 401}, {"www-authenticate": header})
    return _Answer(status, {"message": "error", "error": status})


def _author(name: str, gone: bool) -> str:
    return "[deleted]" if gone else name


def _html(text: str) -> str:
    return f'<div class="md"><p>{html.escape(text)}</p>\n</div>'


def _slug(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", text.lower()).strip("_")[:50] or "_"


def _check_fault(fault: str) -> None:
    plain = fault.removeprefix("commit_then_")
    if not (plain.isdigit() or plain == "timeout" or fault in ("ratelimit", "slow")):
        raise ValueError(f"unknown fault {fault!r}")


# -- HTTP --------------------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    server_version = "FakeReddit/1.0"

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet

    def _handle(self, method: str) -> None:
        fake: FakeReddit = self.server.fake  # type: ignore[attr-defined]
        split = urlsplit(self.path)
        params = {k: v[-1] for k, v in parse_qs(split.query, keep_blank_values=True).items()}
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length).decode() if length else ""
        form = {k: v[-1] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        answer = fake._serve(method, split.path, params, form, self.headers.get("Authorization"))
        if (answer.hold and fake._stopping.wait(answer.hold)) or answer.silent:
            return  # the client gave up long ago (or the fake stops): just close
        body = answer.body
        if params.get("raw_json") != "1":  # without raw_json Reddit escapes &, < and >
            body = json.loads(html.escape(json.dumps(body), quote=False))
        payload = json.dumps(body).encode()
        headers = {
            "Content-Type": "application/json; charset=UTF-8",
            "Content-Length": str(len(payload)),
            "x-ratelimit-remaining": str(fake.ratelimit_remaining),
            "x-ratelimit-used": str(fake.ratelimit_used),
            "x-ratelimit-reset": str(fake.ratelimit_reset),
            **answer.headers,
        }
        try:
            self.send_response(answer.status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass


# -- helpers for tests that use praw ----------------------------------------------------------


def praw_settings(fake: FakeReddit, *, username: str = "pbp_bot") -> dict[str, Any]:
    """Keyword arguments for ``praw.Reddit(**praw_settings(fake))``."""
    return {
        "client_id": fake.client_id,
        "client_secret": fake.client_secret,
        "username": username,
        "password": fake.accounts[username],
        "user_agent": "pbp test",
        "oauth_url": fake.url,
        "reddit_url": fake.url,
        "check_for_updates": False,
    }


def write_praw_ini(folder: Path, fake: FakeReddit, *, site: str = "pbp-test") -> Path:
    """A ``praw.ini`` in ``folder`` with a site pointing at the fake.

    ``timeout = 1`` is written because the brief and praw's docs name it, but praw 8.0.3 never
    hands it to prawcore: use ``patch_timeout`` to make requests time out quickly.
    """
    lines = [f"[{site}]"]
    lines += [f"{key} = {value}" for key, value in praw_settings(fake).items()]
    lines.append("timeout = 1")
    path = folder / "praw.ini"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def use_praw_ini(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make ``praw.Reddit(site)`` read ``folder/praw.ini`` (and no user-wide praw.ini).

    praw reads praw.ini once per process and caches it in ``praw.config.Config.CONFIG``;
    this empties that cache for the test (monkeypatch puts it back afterwards).
    """
    import praw.config

    monkeypatch.chdir(folder)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / "no-user-config"))
    monkeypatch.delenv("APPDATA", raising=False)
    monkeypatch.setenv("PRAW_ALLOW_ENDPOINT_OVERRIDE", "1")  # silence praw's warning
    monkeypatch.setattr(praw.config.Config, "CONFIG", None)


class SleepRecorder:
    """Stands in for the ``time`` module of prawcore/praw: ``sleep`` only records."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.calls.append(seconds)

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def patch_sleeps(monkeypatch: pytest.MonkeyPatch) -> SleepRecorder:
    """prawcore's retry and rate-limit sleeps and praw's RATELIMIT sleep, recorded, not slept.

    Only those modules' ``time`` is replaced (not the global ``time.sleep``).
    """
    import praw.reddit
    import prawcore.rate_limit
    import prawcore.sessions

    recorder = SleepRecorder()
    for module in (prawcore.sessions, prawcore.rate_limit, praw.reddit):
        monkeypatch.setattr(module, "time", recorder)
    return recorder


def patch_timeout(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Every prawcore API request times out after ``seconds`` (instead of 16)."""
    import prawcore.sessions

    defaults = prawcore.sessions.Session.request.__kwdefaults__
    assert defaults is not None and "timeout" in defaults, "prawcore changed: see this helper"
    monkeypatch.setitem(defaults, "timeout", seconds)
