"""What the pages show, read through the bot's own parts: the thread's state as the bot holds
it (``StateCache``), its replies as the bot renders them (``Replies``), the summaries and seeds
as stored, the seals as ``pbp verify`` reads them. Nothing here resolves a rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from pbp.campaign.model import Campaign
from pbp.engine.effects import PreviewContent, SheetContent, StatusContent, SummaryContent
from pbp.engine.rounds import close_round
from pbp.engine.state import EngineState
from pbp.forums.base import ForumPost
from pbp.forums.local import LocalForum
from pbp.render.pictures import ScenePicture, scene_picture
from pbp.render.replies import Replies
from pbp.rules.dice.seal import seal
from pbp.rules.dice.seeded import SeededDice
from pbp.services.bot import Bot
from pbp.services.export import CHEAT_SHEET_KEY
from pbp.services.verify import published_seals, verify_text
from pbp.store.records import ReplyRecord, ThreadRecord
from pbp.store.repository import Repository
from pbp.values import frozen_value

PAGE_ROUNDS = 10  # closed rounds a history page shows
DICE_CACHE = 512  # closed rounds whose dice check is kept (a few pages of a few threads)


class NotFound(LookupError):
    """No such thread, round or character (the page answers 404)."""


@frozen_value
class Viewer:
    """Who looks: a signed-in name (None: anyone) and whether the account is a GM's."""

    name: str | None = None
    gm_account: bool = False

    def gm_of(self, campaign: Campaign) -> bool:
        """Whether this viewer sees what the campaign's GMs see."""
        return self.name is not None and (self.gm_account or campaign.is_gm(self.name))


@frozen_value
class ThreadSummary:
    key: str
    campaign: str
    scene: str
    open_round: int | None
    closed: int


@frozen_value
class ShownPost:
    """A post of the open round with what the bot read in it and its replies under it."""

    id: str
    author: str
    body: str
    at: datetime
    edited: bool
    deleted: bool
    tags: tuple[str, ...] = ()
    problems: int = 0
    replies: tuple[str, ...] = ()  # the bot's replies to it, Markdown


@frozen_value
class Loaded:
    """One thread as the store holds it now."""

    row: ThreadRecord
    state: EngineState
    replies: Replies
    gm: bool


@frozen_value
class ThreadPage:
    key: str
    campaign: str
    scene: str
    gm: bool
    number: int | None
    deadline: datetime | None
    acted: tuple[str, ...]
    not_acted: tuple[str, ...]
    posts: tuple[ShownPost, ...]
    in_thread: tuple[str, ...]  # the bot's replies to nobody in particular since the round opened
    characters: tuple[str, ...]
    picture: ScenePicture
    closed: int
    status: str | None = None  # the GM's full !status
    preview: str | None = None  # the GM's !preview


@frozen_value
class Dice:
    """A closed round's seed and the seal published before it, checked as ``pbp verify``."""

    seed: str | None
    published: str | None
    matches: bool | None
    rolls: int
    rolls_match: bool


@frozen_value
class ClosedRound:
    number: int
    summary: str
    dice: Dice


@frozen_value
class HistoryPage:
    key: str
    campaign: str
    rounds: tuple[ClosedRound, ...]
    page: int
    pages: int


@dataclass(slots=True)
class Reader:
    """The pages' reads over one bot's store and forum (the bot never polls here)."""

    bot: Bot
    _seen: dict[int, int] = field(default_factory=dict)

    @property
    def local(self) -> LocalForum | None:
        forum = self.bot.forum
        return forum if isinstance(forum, LocalForum) else None

    def threads(self) -> list[ThreadSummary]:
        """Every thread the bot has read, by campaign."""
        out = []
        with self.bot.store.read_session() as s:
            repo = Repository(s)
            for row in repo.threads():
                if row.forum != self.bot.forum.kind:
                    continue
                state = self._state(repo, row)
                out.append(
                    ThreadSummary(
                        key=row.key,
                        campaign=state.campaign.name,
                        scene=state.scene_kind.value,
                        open_round=state.round.number if state.round is not None else None,
                        closed=_last_closed(state),
                    )
                )
        return sorted(out, key=lambda t: (t.campaign, t.key))

    def _state(self, repo: Repository, row: ThreadRecord) -> EngineState:
        states = self.bot.states
        held = states.committed_state(row)
        if held is not None:
            return held
        state = states.state(repo, row, self.bot.campaigns.campaign_of(repo, row))
        states.committed(row.id, seq=row.last_seq, state=state, seeds={})
        return state

    def _load(self, repo: Repository, key: str, viewer: Viewer) -> Loaded:
        row = repo.thread(self.bot.forum.kind, key)
        if row is None:
            raise NotFound(key)
        state = self._state(repo, row)
        gm = viewer.gm_of(state.campaign)
        replies = self.bot.renderers.for_campaign(state.campaign, _SeedsOf(repo, row.id))
        return Loaded(row=row, state=state, replies=replies, gm=gm)

    def is_gm(self, key: str, viewer: Viewer) -> bool:
        with self.bot.store.read_session() as s:
            return self._load(Repository(s), key, viewer).gm

    def thread(self, key: str, viewer: Viewer, *, now: datetime) -> ThreadPage:
        """A thread's open round: who acted, the deadline, the posts and the bot's replies."""
        with self.bot.store.read_session() as s:
            repo = Repository(s)
            loaded = self._load(repo, key, viewer)
            state, rnd = loaded.state, loaded.state.round
            pcs = [c.name for c in state.campaign.characters if c.player is not None]
            acted: list[str] = []
            posts: list[ShownPost] = []
            if rnd is not None:
                for post in rnd.posts:
                    if post.live:
                        acted += [a.actor for a in post.accepted]
                scene_names = rnd.base.names()
            else:
                scene_names = state.scene.names()
            shown_acted = tuple(
                dict.fromkeys(a for a in acted if loaded.gm or a in pcs or a not in scene_names)
            )
            not_acted = tuple(n for n in pcs if n in scene_names and n not in acted)
            posts, in_thread = self._posts(repo, loaded)
            return ThreadPage(
                key=key,
                campaign=state.campaign.name,
                scene=state.scene_kind.value,
                gm=loaded.gm,
                number=rnd.number if rnd is not None else None,
                deadline=rnd.deadline if rnd is not None else None,
                acted=shown_acted,
                not_acted=not_acted,
                posts=tuple(posts),
                in_thread=in_thread,
                characters=tuple(scene_names),
                picture=scene_picture(_full(loaded), state),
                closed=_last_closed(state),
                status=self._status(loaded) if loaded.gm else None,
                preview=self._preview(repo, loaded, now=now) if loaded.gm else None,
            )

    def _posts(self, repo: Repository, loaded: Loaded) -> tuple[list[ShownPost], tuple[str, ...]]:
        """The open round's posts (the local forum's as they stand, read or not yet) and the
        bot's public replies, each under the post it answers."""
        state, rnd = loaded.state, loaded.state.round
        records = {p.post_id: p for p in rnd.posts} if rnd is not None else {}
        since = rnd.opened_at if rnd is not None else loaded.row.created_at
        local = self.local
        if local is not None:
            forum_posts = local.thread_since(loaded.row.key, since)
            answers: dict[str | None, list[str]] = {}
            mine: list[ForumPost] = []
            for p in forum_posts:
                if p.reply_key is not None:
                    if not p.deleted:
                        answers.setdefault(p.reply_to, []).append(p.body)
                else:
                    mine.append(p)
            shown = [
                _shown(p.id, p.author, p.body, p.created_at, p.edited_at is not None,
                       p.deleted, records.get(p.id), answers.get(p.id, []))
                for p in mine
            ]  # fmt: skip
            return shown, tuple(answers.get(None, []))
        replies = _public_replies(repo.replies(loaded.row.id))
        by_post: dict[str | None, list[str]] = {}
        for r in replies:
            if r.created_at >= since:
                by_post.setdefault(r.to_post, []).append(r.text)
        shown = [
            _shown(p.post_id, p.author, p.body, p.at, p.edited, p.deleted, p,
                   by_post.get(p.post_id, []))
            for p in records.values()
        ]  # fmt: skip
        del state
        return shown, tuple(by_post.get(None, []))

    def _status(self, loaded: Loaded) -> str | None:
        state, rnd = loaded.state, loaded.state.round
        if rnd is None:
            return None
        content = StatusContent(not_acted=(), deadline=rnd.deadline, as_of=state)
        return loaded.replies.render(content, state=state, full=True)

    def _preview(self, repo: Repository, loaded: Loaded, *, now: datetime) -> str | None:
        """The round closed as ``!close`` would close it now (nothing kept), the GM's view."""
        state, rnd = loaded.state, loaded.state.round
        if rnd is None or not rnd.has_actions:
            return None
        row = loaded.row

        def dice(number: int) -> SeededDice:
            seed = repo.seed(row.id, number)
            if seed is None:
                raise LookupError(number)
            return SeededDice(seed)

        try:
            after, effects = close_round(
                state, at=now, closed_by="preview", reply_to=None, dice=dice
            )
        except LookupError:
            return None
        reports = [e.content.report for e in effects if isinstance(e.content, SummaryContent)]
        if not reports:
            return None
        content = PreviewContent(report=reports[0], after=after)
        return loaded.replies.render(content, state=state, full=True)

    def sheet(self, key: str, name: str, viewer: Viewer) -> tuple[str, str, bool]:
        """A character's sheet in its scene's terms (the GM's in full): campaign, Markdown."""
        with self.bot.store.read_session() as s:
            loaded = self._load(Repository(s), key, viewer)
            state = loaded.state
            scene = state.round.base if state.round is not None else state.scene
            if state.round is None or name not in scene.names():
                raise NotFound(name)
            content = SheetContent(names=(name,), as_of=state)
            text = loaded.replies.render(content, state=state, full=loaded.gm)
            return state.campaign.name, text, loaded.gm

    def history(self, key: str, viewer: Viewer, *, page: int) -> HistoryPage:
        """Closed rounds, newest first, ``PAGE_ROUNDS`` a page, each with its dice checked."""
        with self.bot.store.read_session() as s:
            repo = Repository(s)
            loaded = self._load(repo, key, viewer)
            last = _last_closed(loaded.state)
            pages = max(1, -(-last // PAGE_ROUNDS))
            if not 1 <= page <= pages:
                raise NotFound(str(page))
            top = last - (page - 1) * PAGE_ROUNDS
            numbers = list(range(top, max(0, top - PAGE_ROUNDS), -1))
            texts = repo.summaries(loaded.row.id, numbers=[*numbers, *(n - 1 for n in numbers)])
            seeds = loaded.replies.seed_for
            sheet = repo.latest_reply(loaded.row.id, CHEAT_SHEET_KEY)
            cheat_sheet = sheet.text if sheet is not None else ""
            rounds = tuple(
                ClosedRound(
                    number=n,
                    summary=texts[n],
                    dice=_dice(n, texts[n], _before(n, texts, cheat_sheet), seeds(n)),
                )
                for n in numbers
                if n in texts
            )
            return HistoryPage(
                key=key,
                campaign=loaded.state.campaign.name,
                rounds=rounds,
                page=page,
                pages=pages,
            )

    def verify_text(self, key: str, number: int) -> str:
        """What ``pbp verify`` reads of round ``number``: the seal's text and the summary."""
        with self.bot.store.read_session() as s:
            repo = Repository(s)
            loaded = self._load(repo, key, Viewer())
            texts = repo.summaries(loaded.row.id, numbers=[number, number - 1])
            if number not in texts:
                raise NotFound(str(number))
            sheet = repo.latest_reply(loaded.row.id, CHEAT_SHEET_KEY)
            return _verify_input(number, texts, sheet.text if sheet is not None else "")

    def private(self, key: str, viewer: Viewer) -> list[ReplyRecord]:
        """Every private message the bot sent about the thread (a GM's page)."""
        with self.bot.store.read_session() as s:
            repo = Repository(s)
            loaded = self._load(repo, key, viewer)
            if not loaded.gm:
                raise PermissionError(key)
            latest: dict[tuple[str, str], ReplyRecord] = {}
            for r in repo.replies(loaded.row.id):
                if r.to_user is not None:
                    latest[(r.to_user, r.key)] = r
            return sorted(latest.values(), key=lambda r: r.created_at, reverse=True)


def _last_closed(state: EngineState) -> int:
    """The number of the thread's last closed round (rounds are numbered one after another)."""
    if state.round is not None:
        return state.round.number - 1
    return state.closed[-1].report.number if state.closed else 0


def _full(loaded: Loaded) -> Replies:
    return Replies(env=loaded.replies.env, seed_for=loaded.replies.seed_for, full=loaded.gm)


def _shown(
    post_id: str,
    author: str,
    body: str,
    at: datetime,
    edited: bool,
    deleted: bool,
    record: object,
    answers: Sequence[str],
) -> ShownPost:
    tags: tuple[str, ...] = ()
    problems = 0
    accepted = getattr(record, "accepted", ())
    if record is not None and getattr(record, "live", False):
        tags = tuple(a.tag.source.text for a in accepted)
        problems = len(getattr(record, "problems", ()))
    return ShownPost(
        id=post_id, author=author, body=body, at=at, edited=edited, deleted=deleted,
        tags=tags, problems=problems, replies=tuple(answers),
    )  # fmt: skip


def _public_replies(rows: list[ReplyRecord]) -> list[ReplyRecord]:
    """The newest revision of each public reply, in the order they were first made."""
    latest: dict[str, ReplyRecord] = {}
    for r in rows:
        if r.to_user is None and r.status != "failed":
            latest[r.key] = r
    return sorted(latest.values(), key=lambda r: r.created_at)


def _before(number: int, texts: dict[int, str], cheat_sheet: str) -> str:
    """The text that published round ``number``'s seal: the summary before, or the cheat
    sheet for round 1."""
    return (texts.get(number - 1) if number > 1 else cheat_sheet) or ""


def _verify_input(number: int, texts: dict[int, str], cheat_sheet: str) -> str:
    before = _before(number, texts, cheat_sheet)
    return f"{before}\n\n{texts.get(number, '')}".strip() + "\n"


class _SeedsOf:
    """A thread's round seeds, each read when first asked for (a page of a thread of 1,000
    rounds needs a few of them), within the page's read session."""

    def __init__(self, repo: Repository, thread_id: int) -> None:
        self._repo, self._thread = repo, thread_id
        self._known: dict[int, str | None] = {}

    def __call__(self, number: int) -> str | None:
        if number not in self._known:
            self._known[number] = self._repo.seed(self._thread, number)
        return self._known[number]


@lru_cache(maxsize=DICE_CACHE)
def _dice(number: int, summary: str, before: str, seed: str | None) -> Dice:
    """A closed round's dice checked as ``pbp verify`` checks them. The same inputs give the
    same answer, so it is kept (a summary, its seal's text or its seed changed is a new
    key: a round re-opened and closed again is checked anew)."""
    text = f"{before}\n\n{summary}".strip() + "\n"
    published = (published_seals(before).get(number) or (None,))[0]
    checks = [r for r in verify_text(text).rounds if r.number == number]
    rolls = len(checks[0].rolls) if checks else 0
    return Dice(
        seed=seed,
        published=published,
        matches=None if published is None or seed is None else seal(seed) == published,
        rolls=rolls,
        rolls_match=bool(checks) and not checks[0].mismatches and not checks[0].problems,
    )
