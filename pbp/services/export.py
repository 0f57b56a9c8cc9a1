"""`pbp export`: a thread's ledger (SPEC §5) or a readable transcript of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from pbp.engine.state import EngineState
from pbp.errors import InputError
from pbp.services.bot import Bot
from pbp.services.ledger import LedgerBuilder, materialized
from pbp.services.projection import StoredRound, post_entry, stored_rounds
from pbp.services.streamed_json import write_streamed
from pbp.services.verify import published_seals
from pbp.store.repository import Repository
from pbp.values import frozen_value

CHEAT_SHEET_KEY = "cheatsheet"  # the bot's first reply in a thread: it seals round 1's dice


@frozen_value(kw_only=False)
class _Stored:
    """What the store holds of a thread, read in one unit of work: its state, its closed
    rounds (each made a ledger entry only when it is read) and what renders them."""

    state: EngineState
    builder: LedgerBuilder
    closed: Iterator[StoredRound]
    read_closed: Callable[[], Iterator[StoredRound]]  # the closed rounds, read from the start
    cheat_sheet: str | None  # the bot's first reply: it seals round 1's dice


@contextmanager
def _stored(bot: Bot, thread: str) -> Iterator[_Stored]:
    """What the store holds of ``thread``, in a unit of work open while the block runs: its
    closed rounds are read from the store as they are taken."""
    with bot.store.session() as s:
        repo = Repository(s)
        row = repo.thread(bot.forum.kind, thread)
        if row is None:
            raise InputError(
                f"the bot has not read a thread called {thread!r} yet "
                "(is it listed under [[threads]], and has `pbp poll --once` run since?)"
            )
        state = bot.states.state(repo, row, bot.campaigns.campaign_of(repo, row))
        replies = bot.renderers.for_campaign(state.campaign, repo.seeds(row.id).get)
        sheet = repo.latest_reply(row.id, CHEAT_SHEET_KEY)
        yield _Stored(
            state=state,
            builder=LedgerBuilder(replies=replies, summaries={}),
            closed=stored_rounds(repo, row.id, state),
            read_closed=lambda: stored_rounds(repo, row.id, state),
            cheat_sheet=sheet.text if sheet is not None else None,
        )


def _streamed_ledger(
    stored: _Stored, closed: Iterable[StoredRound], *, read_twice: bool = False
) -> dict[str, Any]:
    """The ledger with its rounds and rejected tags as iterators (``LedgerBuilder.streamed``),
    round 1 with its ``seal`` as the cheat sheet published it (SPEC §6), so ``pbp verify``
    checks round 1's seed against it as it does later rounds' against the summary before
    them. ``read_twice``: the rejected tags are read from the store after the rounds (a long
    thread's are never all held: ``closed`` is then ``stored.closed``)."""
    ledger = stored.builder.streamed(
        stored.state,
        (r.entry for r in closed),
        closed_again=(lambda: (r.entry for r in stored.read_closed())) if read_twice else None,
    )
    seals = published_seals(stored.cheat_sheet or "").get(1, ())
    if seals:
        ledger["rounds"] = _sealed_first(ledger["rounds"], seals[0])
    return ledger


def _sealed_first(rounds: Iterator[dict[str, Any]], seal: str) -> Iterator[dict[str, Any]]:
    first = next(rounds, None)
    if first is None:
        return
    if first["number"] == 1:
        first["seal"] = seal
    yield first
    yield from rounds


def thread_ledger(bot: Bot, thread: str) -> dict[str, Any]:
    """The ledger of a thread as the bot holds it now."""
    with _stored(bot, thread) as stored:
        return materialized(_streamed_ledger(stored, stored.closed))


def write_ledger(bot: Bot, thread: str, write: Callable[[str], object]) -> None:
    """Write the ledger of ``thread_ledger`` as ``json.dumps(indent=1, ensure_ascii=False)``
    would, a round at a time: each stored round is made an entry only when it is written, so
    a long thread's ledger is never held as one tree, nor as one text, nor are its stored
    rounds or their rejected tags all read at once."""
    with _stored(bot, thread) as stored:
        write_streamed(_streamed_ledger(stored, stored.closed, read_twice=True), write)


def _post_lines(posts: list[dict[str, Any]], *, closed_by: str | None) -> list[str]:
    out: list[str] = []
    undone = any(_command_is(c, "undo") for p in posts for c in p.get("commands", ()))
    for post in posts:
        when = datetime.fromisoformat(post["at"]).strftime("%Y-%m-%d %H:%M UTC")
        if post["deleted"]:
            out += [f"**{post['post']}**, {post['author']}, {when}: *deleted*", ""]
            continue
        edited = " (edited)" if post["edited"] else ""
        out += [f"**{post['post']}**, {post['author']}, {when}{edited}:", ""]
        out += [f"> {line}" if line else ">" for line in post["body"].rstrip().splitlines()]
        out.append("")
        out += _command_notes(post, closed_by=closed_by, undone=undone)
    return out


def _command_is(line: str, word: str) -> bool:
    head = line.lstrip("!").split(maxsplit=1)
    return bool(head) and head[0].casefold() == word


def _command_notes(post: dict[str, Any], *, closed_by: str | None, undone: bool) -> list[str]:
    """What a reader of the transcript would misread in a post's commands: command lines an
    edit wrote (commands act from the first version of a post: they did nothing), and a
    ``!close`` that ``!undo`` took back."""
    if "commands" not in post:  # a round stored by an older pbp
        return []
    read = post["commands"]
    lines = [ln.strip() for ln in post["body"].splitlines() if ln.lstrip().startswith("!")]
    notes = []
    written = [ln for ln in lines if ln not in read]
    if post["edited"] and written:
        shown = ", ".join(f"`{ln.replace('`', chr(39))}`" for ln in written)
        notes.append(
            f"*Written by an edit, so it did nothing (commands act from the first version of "
            f"a post): {shown}.*"
        )
    if undone and post["post"] != closed_by and any(_command_is(c, "close") for c in read):
        notes.append("*Its `!close` was undone (`!undo`): the round was re-opened.*")
    return [*notes, ""] if notes else []


def _one_line(error: str) -> str:
    """An error reply as one line: without the quote of the tag it answers."""
    lines = [line for line in error.splitlines() if line.strip() and not line.startswith(">")]
    return " ".join(" ".join(lines).split())


def thread_markdown(bot: Bot, thread: str) -> str:
    """A readable transcript: every round with its posts and its results."""
    with _stored(bot, thread) as stored:
        closed = list(stored.closed)
    ledger, state = materialized(_streamed_ledger(stored, closed)), stored.state
    posts = {r.entry.round["number"]: r.posts for r in closed}
    if state.round is not None:
        posts[state.round.number] = [post_entry(p) for p in state.round.posts]
    out = [f"# {ledger['campaign']}: thread {thread}", ""]
    for rnd in ledger["rounds"]:
        closed = rnd["closed_by"]
        how = (
            "open"
            if closed is None
            else ("closed by its deadline" if closed == "deadline" else f"closed by post {closed}")
        )
        out += [f"## Round {rnd['number']} ({how})", ""]
        if rnd.get("seal"):  # round 1's, from the cheat sheet (later ones end a summary)
            out += [
                "The bot's first reply sealed this round's dice:",
                "",
                f"^(Dice seal of round {rnd['number']}: `{rnd['seal']}`)",
                "",
            ]
        out += ["### Posts", ""]
        out += _post_lines(posts.get(rnd["number"], []), closed_by=closed) or ["*No posts.*", ""]
        out += ["### Results", ""]
        if rnd.get("summary"):  # the summary as posted, its headings under this one
            out += [
                f"##{line}" if line.startswith("#") else line
                for line in rnd["summary"].rstrip().splitlines()
            ]
            out.append("")
        else:
            out += ["*This round is still open.*", ""]
    if ledger["rejected"]:
        out += ["## Rejected tags", ""]
        out += [
            f"- post {r['post']} (round {r['round']}): `{r['tag']}`: {_one_line(r['error'])}"
            for r in ledger["rejected"]
        ]
        out.append("")
    return "\n".join(out).rstrip() + "\n"
