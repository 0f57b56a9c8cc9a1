"""`pbp export`: a thread's ledger (SPEC §5) or a readable transcript of it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbp.engine.state import EngineState
from pbp.errors import InputError
from pbp.services.bot import Bot
from pbp.services.ledger import LedgerBuilder
from pbp.services.projection import post_entry, stored_rounds
from pbp.services.verify import published_seals
from pbp.store.repository import Repository

CHEAT_SHEET_KEY = "cheatsheet"  # the bot's first reply in a thread: it seals round 1's dice


@dataclass(frozen=True, slots=True)
class _Thread:
    state: EngineState
    ledger: dict[str, Any]
    posts: dict[int, list[dict[str, Any]]]  # each closed round's posts, by round number


def _load(bot: Bot, thread: str) -> _Thread:
    with bot.store.session() as s:
        repo = Repository(s)
        row = repo.thread(bot.forum.kind, thread)
        if row is None:
            raise InputError(
                f"the bot has not read a thread called {thread!r} yet "
                "(is it listed under [[threads]], and has `pbp poll --once` run since?)"
            )
        state = bot.state(repo, row, bot.campaign_of(repo, row))
        replies = bot.replies_for(state.campaign, repo.seeds(row.id).get)
        closed = stored_rounds(repo, row.id, state)
        ledger = LedgerBuilder(replies=replies, summaries={}).build(
            state, (r.entry for r in closed)
        )
        posts = {r.entry.round["number"]: r.posts for r in closed}
        sheet = repo.latest_reply(row.id, CHEAT_SHEET_KEY)
        cheat_sheet = sheet.text if sheet is not None else None
        return _Thread(state=state, ledger=_with_first_seal(ledger, cheat_sheet), posts=posts)


def _with_first_seal(ledger: dict[str, Any], cheat_sheet: str | None) -> dict[str, Any]:
    """The ledger with round 1's ``seal`` as the cheat sheet published it (SPEC §6), so
    ``pbp verify`` checks round 1's seed against it as it does later rounds' against the
    summary before them."""
    seals = published_seals(cheat_sheet or "").get(1, ())
    rounds = ledger["rounds"]
    if seals and rounds and rounds[0]["number"] == 1:
        rounds[0]["seal"] = seals[0]
    return ledger


def thread_ledger(bot: Bot, thread: str) -> dict[str, Any]:
    """The ledger of a thread as the bot holds it now."""
    return _load(bot, thread).ledger


def _post_lines(posts: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for post in posts:
        when = datetime.fromisoformat(post["at"]).strftime("%Y-%m-%d %H:%M UTC")
        if post["deleted"]:
            out += [f"**{post['post']}**, {post['author']}, {when}: *deleted*", ""]
            continue
        edited = " (edited)" if post["edited"] else ""
        out += [f"**{post['post']}**, {post['author']}, {when}{edited}:", ""]
        out += [f"> {line}" if line else ">" for line in post["body"].rstrip().splitlines()]
        out.append("")
    return out


def _one_line(error: str) -> str:
    """An error reply as one line: without the quote of the tag it answers."""
    lines = [line for line in error.splitlines() if line.strip() and not line.startswith(">")]
    return " ".join(" ".join(lines).split())


def thread_markdown(bot: Bot, thread: str) -> str:
    """A readable transcript: every round with its posts and its results."""
    loaded = _load(bot, thread)
    ledger, state = loaded.ledger, loaded.state
    posts = dict(loaded.posts)
    if state.round is not None:
        posts[state.round.number] = [post_entry(p) for p in state.round.posts]
    out = [f"# {ledger['campaign']}: thread {thread}", ""]
    for rnd in ledger["rounds"]:
        closed = rnd["closed_by"]
        how = "open" if closed is None else (
            "closed by its deadline" if closed == "deadline" else f"closed by post {closed}"
        )
        out += [f"## Round {rnd['number']} ({how})", ""]
        if rnd.get("seal"):  # round 1's, from the cheat sheet (later ones end a summary)
            out += ["The bot's first reply sealed this round's dice:", "",
                    f"^(Dice seal of round {rnd['number']}: `{rnd['seal']}`)", ""]
        out += ["### Posts", ""]
        out += _post_lines(posts.get(rnd["number"], [])) or ["*No posts.*", ""]
        out += ["### Results", ""]
        if rnd.get("summary"):  # the summary as posted, its headings under this one
            out += [f"##{line}" if line.startswith("#") else line
                    for line in rnd["summary"].rstrip().splitlines()]
            out.append("")
        else:
            out += ["*This round is still open.*", ""]
    if ledger["rejected"]:
        out += ["## Rejected tags", ""]
        out += [f"- post {r['post']} (round {r['round']}): `{r['tag']}`: {_one_line(r['error'])}"
                for r in ledger["rejected"]]
        out.append("")
    return "\n".join(out).rstrip() + "\n"
