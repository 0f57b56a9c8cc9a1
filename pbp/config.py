"""The bot's configuration (SPEC §3): a TOML file, checked into frozen settings.

Paths in the file are relative to the file. Secrets never live in it: Reddit credentials come
from praw's own configuration (a praw.ini site or ``praw_*`` environment variables), and a
database URL that carries a password can come from ``PBP_DATABASE_URL`` instead.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import field
from functools import partial
from pathlib import Path
from typing import Any, Literal

from pbp.campaign.tables import KeyPath, Reader, Table, shortened
from pbp.errors import ConfigError
from pbp.values import frozen_value

AckMode = Literal["errors", "all", "none"]
ForumKind = Literal["local", "reddit"]

DEFAULT_CONFIG_PATH = Path("config.toml")
DEFAULT_DATABASE_URL = "sqlite:///pbp.db"
DATABASE_URL_VARIABLE = "PBP_DATABASE_URL"
MIN_POLL_SECONDS = 5
MAX_PATH_BYTES = 4096  # Linux's PATH_MAX: no longer path names a file
MAX_POLL_SECONDS = 24 * 60 * 60  # a poll a day: any slower and no deadline is kept
DEFAULT_TIMEOUT_SECONDS = 10
MIN_TIMEOUT_SECONDS = 2  # libpq's shortest connect_timeout
MAX_TIMEOUT_SECONDS = 10 * 60  # a call that may wait longer is one nobody waits for
MAX_OUTAGE_SECONDS = 24 * 60 * 60

_TOP_KEYS = ("bot", "database", "forum", "threads", "campaigns", "serve")
_BOT_KEYS = ("username", "poll_seconds", "ack")
_DATABASE_KEYS = ("url", "timeout_seconds", "outage_seconds")
_FORUM_KEYS = ("kind", "reddit")
_REDDIT_KEYS = ("site", "subreddits")
_THREAD_KEYS = ("id", "campaign")
_SERVE_KEYS = ("host", "port", "base_url", "forwarded_allow_ips")
_ACKS: tuple[AckMode, ...] = ("errors", "all", "none")
_FORUMS: tuple[ForumKind, ...] = ("local", "reddit")
# Keys that belong to praw's configuration: refused anywhere, with a pointer to where they go.
_PRAW_KEYS = frozenset({
    "client_id", "client_secret", "password", "refresh_token", "access_token", "token",
    "secret", "api_key", "user_agent", "redirect_uri", "check_for_updates",
})  # fmt: skip
_PRAW_USERNAME: tuple[str, ...] = ("forum", "reddit", "username")
_SQLITE_URL = re.compile(r"^(sqlite(?:\+\w+)?):///(.*)$")


@frozen_value
class BotSettings:
    """``[bot]``: the bot's own account, how often it polls, and when it replies to posts."""

    username: str
    poll_seconds: int = 60
    ack: AckMode = "errors"


@frozen_value
class DatabaseSettings:
    """``[database]``: an SQLite or PostgreSQL URL (a relative SQLite path is made absolute);
    how long one call waits for the database at most; how long `pbp run` keeps trying a
    database that does not answer before it stops (None: as long as a thread's lease)."""

    url: str = DEFAULT_DATABASE_URL
    timeout_seconds: int = DEFAULT_TIMEOUT_SECONDS
    outage_seconds: int | None = None


@frozen_value
class RedditSettings:
    """``[forum.reddit]``: the praw.ini site (None: praw's DEFAULT) and the subreddits."""

    site: str | None = None
    subreddits: tuple[str, ...] = ()


@frozen_value
class ForumSettings:
    """``[forum]``: which forum the bot reads."""

    kind: ForumKind = "local"
    reddit: RedditSettings = field(default_factory=RedditSettings)


@frozen_value
class ServeSettings:
    """``[serve]``: where ``pbp serve`` listens (127.0.0.1 unless told otherwise), the address
    people reach it at (for the GM sign-in links, e.g. behind a reverse proxy), and the
    proxies whose X-Forwarded-* headers it believes."""

    host: str = "127.0.0.1"
    port: int = 8080
    base_url: str | None = None
    forwarded_allow_ips: str = "127.0.0.1"


@frozen_value
class ThreadBinding:
    """One ``[[threads]]`` entry: a forum thread and the campaign file it runs."""

    id: str
    campaign: Path


@frozen_value
class Config:
    """The whole configuration; ``path`` is the file it came from."""

    path: Path
    bot: BotSettings
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    forum: ForumSettings = field(default_factory=ForumSettings)
    threads: tuple[ThreadBinding, ...] = ()
    campaigns: tuple[Path, ...] = ()  # campaign files a GM may bind a new thread to
    serve: ServeSettings = field(default_factory=ServeSettings)

    @property
    def campaign_files(self) -> tuple[Path, ...]:
        """Every campaign file the bot knows: those of the threads, then the others listed."""
        return tuple(dict.fromkeys((*(t.campaign for t in self.threads), *self.campaigns)))


def read_text(path: Path) -> str:
    """The text of a config or campaign file; unreadable files raise ConfigError."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(
            path=str(path),
            where="file",
            problem="the file does not exist",
            expected="a TOML file at this path",
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            path=str(path),
            where=f"byte {exc.start}",
            problem="the file is not UTF-8 text",
            expected="a TOML file saved as UTF-8",
        ) from None
    except OSError as exc:
        raise ConfigError(
            path=str(path),
            where="file",
            problem=f"the file cannot be read ({exc.strerror})",
            expected="a readable TOML file",
        ) from None


def load_config(path: Path, *, environ: Mapping[str, str] | None = None) -> Config:
    """The configuration in the file at ``path``; raises ConfigError on any mistake.

    ``environ`` (default: the process environment) may override the database URL through
    ``PBP_DATABASE_URL``.
    """
    return parse_config(read_text(path), path=path, environ=environ)


def parse_config(text: str, *, path: Path, environ: Mapping[str, str] | None = None) -> Config:
    """The configuration that ``text`` describes; relative paths start at ``path``'s folder."""
    reader = Reader.of(text, path=str(path))
    _refuse_praw_keys(reader, reader.doc, ())
    _check_keys(reader, reader.doc, (), allowed=_TOP_KEYS)
    base = path.parent
    env = os.environ if environ is None else environ
    # each part that is wrong is kept and the reading goes on: every mistake is reported
    bot = reader.attempt(lambda: _bot(reader), BotSettings(username="?"))
    database = reader.attempt(lambda: _database(reader, base, env), DatabaseSettings())
    forum = reader.attempt(lambda: _forum(reader), ForumSettings())
    threads: tuple[ThreadBinding, ...] = reader.attempt(lambda: _threads(reader, base), ())
    campaigns: tuple[Path, ...] = reader.attempt(lambda: _campaigns(reader, base), ())
    serve = reader.attempt(lambda: _serve(reader), ServeSettings())
    reader.finish()
    return Config(path=path, bot=bot, database=database, forum=forum,
                  threads=threads, campaigns=campaigns, serve=serve)  # fmt: skip


def _refuse_praw_keys(reader: Reader, table: Table, at: KeyPath) -> None:
    for key, value in table.items():
        here = (*at, key)
        praw_only = key in _PRAW_KEYS or here == _PRAW_USERNAME
        if praw_only:
            reader.report(
                here,
                f'"{key}" does not belong in the config file: Reddit credentials and secrets '
                "never live here",
                f"{key} in a praw.ini site (the working folder's praw.ini or "
                f"~/.config/praw.ini, e.g. [pbp] {key} = …) or the praw_{key} environment "
                "variable",
            )
        for index, item in _tables_in(value):
            _refuse_praw_keys(reader, item, here if index is None else (*here, index))


def _tables_in(value: Any) -> list[tuple[int | None, Table]]:
    if isinstance(value, dict):
        return [(None, value)]
    if isinstance(value, list):
        return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]
    return []


def _section(reader: Reader, key: str, allowed: tuple[str, ...]) -> Table:
    table = reader.table(reader.doc, (), key) or {}
    _check_keys(reader, table, (key,), allowed=allowed)
    return table


def _check_keys(reader: Reader, table: Table, at: KeyPath, *, allowed: tuple[str, ...]) -> None:
    """Unknown keys of ``table``, but for praw's (``_refuse_praw_keys`` says where they go)."""
    own = {k: v for k, v in table.items() if k not in _PRAW_KEYS and (*at, k) != _PRAW_USERNAME}
    reader.check_keys(own, at, allowed=allowed)


def _bot(reader: Reader) -> BotSettings:
    at: KeyPath = ("bot",)
    if "bot" not in reader.doc:
        reader.fail(at, "the [bot] table is missing", '[bot] with username = "your_bot_account"')
    table = _section(reader, "bot", _BOT_KEYS)
    reader.required(table, at, "username", expected='"your_bot_account"')
    username = (reader.text(table, at, "username") or "").strip().removeprefix("u/")
    if not username or any(ch.isspace() or not ch.isprintable() for ch in username):
        reader.fail(
            (*at, "username"),
            f'"{shortened(username)}" is not a forum username',
            "the bot account's username, without spaces or control characters",
        )
    poll = reader.whole(
        table, at, "poll_seconds", default=60, minimum=MIN_POLL_SECONDS, maximum=MAX_POLL_SECONDS
    )
    ack = reader.choice(table, at, "ack", choices=_ACKS, default="errors")
    return BotSettings(username=username, poll_seconds=poll or 60, ack=ack or "errors")


def _database(reader: Reader, base: Path, env: Mapping[str, str]) -> DatabaseSettings:
    at: KeyPath = ("database",)
    table = _section(reader, "database", _DATABASE_KEYS)
    url = env.get(DATABASE_URL_VARIABLE) or reader.text(table, at, "url")
    url = (url or DEFAULT_DATABASE_URL).strip()
    if "://" not in url:
        reader.fail((*at, "url"), f'"{url}" is not a database URL',
                    'an SQLAlchemy URL such as "sqlite:///pbp.db"')  # fmt: skip
    timeout = reader.whole(
        table,
        at,
        "timeout_seconds",
        default=DEFAULT_TIMEOUT_SECONDS,
        minimum=MIN_TIMEOUT_SECONDS,
        maximum=MAX_TIMEOUT_SECONDS,
    )
    outage = reader.whole(
        table, at, "outage_seconds", default=None, minimum=1, maximum=MAX_OUTAGE_SECONDS
    )
    return DatabaseSettings(
        url=sqlite_url_relative_to(url, base=base),
        timeout_seconds=timeout or DEFAULT_TIMEOUT_SECONDS,
        outage_seconds=outage,
    )


def sqlite_url_relative_to(url: str, *, base: Path) -> str:
    """``url`` with a relative SQLite file path made absolute against ``base``."""
    found = _SQLITE_URL.match(url)
    if not found:
        return url
    scheme, rest = found.groups()
    file, mark, query = rest.partition("?")
    if file in ("", ":memory:") or file.startswith(("/", "file:")):
        return url
    return f"{scheme}:///{(base / file).resolve()}{mark}{query}"


def _serve(reader: Reader) -> ServeSettings:
    at: KeyPath = ("serve",)
    table = _section(reader, "serve", _SERVE_KEYS)
    host = (reader.text(table, at, "host") or "127.0.0.1").strip()
    port = reader.whole(table, at, "port", default=8080, minimum=1, maximum=65535)
    base_url = (reader.text(table, at, "base_url") or "").strip().rstrip("/") or None
    if base_url is not None and not re.fullmatch(r"https?://[^\s/]+(?:/\S*)?", base_url):
        reader.fail((*at, "base_url"), f'"{shortened(base_url)}" is not a web address',
                    '"https://pbp.example.org" (where people reach pbp serve)')  # fmt: skip
    proxies = (reader.text(table, at, "forwarded_allow_ips") or "127.0.0.1").strip()
    return ServeSettings(
        host=host, port=port or 8080, base_url=base_url, forwarded_allow_ips=proxies
    )


def _forum(reader: Reader) -> ForumSettings:
    forum = _section(reader, "forum", _FORUM_KEYS)
    kind = reader.choice(forum, ("forum",), "kind", choices=_FORUMS, default="local") or "local"
    at: KeyPath = ("forum", "reddit")
    table = reader.table(forum, ("forum",), "reddit") or {}
    _check_keys(reader, table, at, allowed=_REDDIT_KEYS)
    site = reader.text(table, at, "site")
    subreddits = tuple(
        s.strip().removeprefix("r/") for s in reader.strings(table, at, "subreddits") or ()
    )
    if kind == "reddit" and not subreddits:
        reader.fail((*at, "subreddits"), 'kind = "reddit" needs the subreddits to read',
                    '[forum.reddit] subreddits = ["MyPbPGame"]')  # fmt: skip
    for index, name in enumerate(subreddits):
        if not re.fullmatch(r"[A-Za-z0-9_]+", name):
            reader.fail((*at, "subreddits", index), f'"{name}" is not a subreddit name',
                        "letters, digits and _ only")  # fmt: skip
    return ForumSettings(kind=kind, reddit=RedditSettings(site=site, subreddits=subreddits))


def _threads(reader: Reader, base: Path) -> tuple[ThreadBinding, ...]:
    """Every ``[[threads]]`` entry; each entry's mistake is kept and the others still read."""
    seen: dict[str, int] = {}
    read = [
        reader.attempt(partial(_thread, reader, table, index, base, seen), None)
        for index, table in enumerate(reader.tables(reader.doc, (), "threads"))
    ]
    return tuple(binding for binding in read if binding is not None)


def _thread(
    reader: Reader, table: Table, index: int, base: Path, seen: dict[str, int]
) -> ThreadBinding:
    at: KeyPath = ("threads", index)
    _check_keys(reader, table, at, allowed=_THREAD_KEYS)
    reader.required(table, at, "id", expected='"1abcde" (a Reddit submission id or a name)')
    reader.required(table, at, "campaign", expected='"campaigns/sunken-keep.toml"')
    thread_id = (reader.text(table, at, "id") or "").strip()
    if not thread_id:
        reader.fail((*at, "id"), "the thread id is empty", "a Reddit submission id or a name")
    if not thread_id.isprintable():  # a NUL, an escape: no forum names a thread so
        reader.fail(
            (*at, "id"),
            f'the thread id "{shortened(thread_id)}" holds a control or invisible character',
            "a Reddit submission id or a name",
        )
    if thread_id in seen:
        reader.fail((*at, "id"), f'thread "{thread_id}" is listed twice '
                    f"(also at {reader.where(('threads', seen[thread_id]))})",
                    "each thread once")  # fmt: skip
    seen[thread_id] = index
    campaign = _file(reader, (*at, "campaign"), reader.text(table, at, "campaign") or "", base)
    return ThreadBinding(id=thread_id, campaign=campaign)


def _campaigns(reader: Reader, base: Path) -> tuple[Path, ...]:
    """``campaigns = ["campaigns/tower.toml", ...]``: campaigns a GM may bind a new thread to
    with ``!campaign NAME`` (the campaigns of ``[[threads]]`` need not be listed again)."""
    files = reader.strings(reader.doc, (), "campaigns") or ()
    return tuple(_file(reader, ("campaigns", i), f, base) for i, f in enumerate(files))


def _file(reader: Reader, at: KeyPath, given: str, base: Path) -> Path:
    """The campaign file ``given`` names, relative to ``base``, made absolute. Whether it
    loads is for the campaign's own check; here only what no file could be: an empty path
    (the config's folder), a NUL character, a name longer than any file system takes."""
    example = '"campaigns/sunken-keep.toml" (relative to this file)'
    if not given.strip():
        reader.fail(at, "the campaign file is empty", example)
    if "\x00" in given:
        reader.fail(at, "the campaign file's path holds a NUL character", example)
    if len(given.encode("utf-8")) > MAX_PATH_BYTES:
        reader.fail(
            at,
            f"the campaign file's path is {len(given)} characters long",
            f"a path of at most {MAX_PATH_BYTES} bytes",
        )
    return (base / given).resolve()
