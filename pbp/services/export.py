"""`pbp export`: a thread's ledger (SPEC §5) or a readable transcript of it."""

from __future__ import annotations

from typing import Any

from pbp.errors import InputError
from pbp.services.bot import Bot
from pbp.services.projection import ledger_of
from pbp.store.repository import Repository


def thread_ledger(bot: Bot, thread: str) -> dict[str, Any]:
    """The ledger of a thread as the bot holds it now."""
    with bot.store.session() as s:
        repo = Repository(s)
        row = repo.thread(bot.forum.kind, thread)
        if row is None:
            raise InputError(f"the bot has not read a thread called {thread!r} yet")
        campaign = bot.campaign_of(repo, row)
        state = bot.state(repo, row, campaign)
        seeds = repo.seeds(row.id)
        replies = bot.replies_for(state.campaign, seeds.get)
        return ledger_of(repo, row.id, state, replies)


def thread_markdown(bot: Bot, thread: str) -> str:
    """A readable transcript: every round with its posts, its results and the replies."""
    ledger = thread_ledger(bot, thread)
    out = [f"# {ledger['campaign']}: thread {thread}", ""]
    for rnd in ledger["rounds"]:
        closed = rnd["closed_by"]
        how = "open" if closed is None else (
            "closed by its deadline" if closed == "deadline" else f"closed by post {closed}"
        )
        out += [f"## Round {rnd['number']} ({how})", ""]
        if rnd.get("summary"):
            out += [rnd["summary"].rstrip(), ""]
        elif closed is None:
            out += ["*This round is still open.*", ""]
    if ledger["rejected"]:
        out += ["## Rejected tags", ""]
        out += [f"- post {r['post']} (round {r['round']}): `{r['tag']}`: {r['error']}"
                for r in ledger["rejected"]]
        out.append("")
    return "\n".join(out).rstrip() + "\n"
