"""Standing orders (issue 29): ``!standing [TAG]`` acts for a character in every round it has
not acted in by the close, until it is cancelled (``!standing off``) or replaced.

An order is checked when it is posted (as a tag of a round of its own: what the open round
already used does not count) and again at the close like any tag: at the close each order of
a character that has not acted becomes a post of the round, after every post of the forum
(the close's place), read and resolved like them; one that no longer reads or passes its
checks is refused then, with the reason, in the summary. A campaign's ``standing_default =
"hold"`` (or a sheet's ``standing``) has a character with no order pass.

Commands act once, from the first version of their post: editing the line changes nothing.
Deleting the post that set an order cancels it (the post is taken back, and with it what its
commands left standing).
"""

from __future__ import annotations

from datetime import datetime

from pbp.engine import registry
from pbp.engine.actors import choose_actor
from pbp.engine.command_table import Acting
from pbp.engine.done import StandingSet
from pbp.engine.orders import HOLD, StandingOrder
from pbp.engine.pending import Pending
from pbp.engine.reading import check_tags, parse_for
from pbp.engine.setup import located
from pbp.engine.state import EngineState, OpenRound, PostRecord
from pbp.errors import Problem
from pbp.tags import resolve_name
from pbp.tags.command_problems import BadCommandArguments
from pbp.tags.commands import StandingCommand
from pbp.values import replace

_ONE_TAG = "one tag, like !standing [physical: attack Goblin]"


def standing(state: EngineState, command: StandingCommand, acting: Acting) -> EngineState | Problem:
    """``!standing``: set, replace or cancel a character's standing order."""
    rnd, post = state.round, acting.post
    assert rnd is not None
    name: str | None = None
    if command.name is not None:
        found = resolve_name(command.name, candidates=rnd.base.names())
        if not isinstance(found, str):
            return located(found, command)
        name = found
    if command.tag is None:
        return _cancel(state, command, acting, name)
    text = command.tag if name is None else _with_as(command.tag, name)
    order = _checked(state, command, post, text)
    if isinstance(order, Problem):
        return order
    had = any(o.character == order.character for o in state.standing)
    kept = tuple(o for o in state.standing if o.character != order.character)
    acting.also.append(
        StandingSet(post_id=post.post_id, character=order.character, tag=command.tag, had=had)
    )
    return replace(state, standing=(*kept, order))


def _with_as(tag: str, name: str) -> str:
    """The tag acting for ``name`` (the character the command named)."""
    return f"{tag[:-1].rstrip()} | as {name}]"


def _checked(
    state: EngineState, command: StandingCommand, post: PostRecord, text: str
) -> StandingOrder | Problem:
    """The order, if its tag reads and passes its checks now (the first problem otherwise, at
    the command's line)."""
    rnd = state.round
    assert rnd is not None
    parsed = parse_for(state, body=text, gm=post.gm).parsed
    accepted, problems = check_tags(
        parsed=parsed,
        campaign=state.campaign,
        author=post.author,
        post_id=post.post_id,
        scene=rnd.base,
        kind=state.scene_kind,
        pending=Pending(),  # a round of its own: what this round used does not count
        rulesets=state.rulesets,
        scores=state.scores,
    )
    if problems:
        first = problems[0]
        return replace(first, line=command.source.line, column=command.source.column)
    if len(accepted) != 1 or len(parsed.tags) != 1:
        return located(
            BadCommandArguments(tag="", command="standing", found=text, expected=_ONE_TAG),
            command,
        )
    return StandingOrder(
        character=accepted[0].actor,
        text=text,
        author=post.author,
        gm=post.gm,
        post_id=post.post_id,
        line=command.source.line,
    )


def _cancel(
    state: EngineState, command: StandingCommand, acting: Acting, name: str | None
) -> EngineState | Problem:
    """``!standing off`` (``!standing NAME off``): the character's order cancelled."""
    post = acting.post
    assert state.round is not None
    actor = choose_actor(
        campaign=state.campaign,
        author=post.author,
        as_name=name,
        tag=command.source.text,
        scene_names=state.round.base.names(),
    )
    if isinstance(actor, Problem):
        return located(actor, command)
    had = any(o.character == actor.name for o in state.standing)
    kept = tuple(o for o in state.standing if o.character != actor.name)
    acting.also.append(StandingSet(post_id=post.post_id, character=actor.name, tag=None, had=had))
    return replace(state, standing=kept)


def cancelled_with(state: EngineState, post_id: str) -> EngineState:
    """``state`` without the orders that the deleted post ``post_id`` set."""
    kept = tuple(o for o in state.standing if o.post_id != post_id)
    return state if len(kept) == len(state.standing) else replace(state, standing=kept)


def acted(rnd: OpenRound) -> set[str]:
    """The characters with an accepted tag in a live post of the round."""
    return {a.actor for p in rnd.posts if p.live and p.standing is None for a in p.accepted}


def waiting(state: EngineState, rnd: OpenRound) -> list[str]:
    """The characters of the scene who could act this round (not out, not out of play)."""
    gone = registry.out_of_play(state)
    return [n for n in rnd.base.names() if not rnd.base.is_out(n) and n not in gone]


def ordered(state: EngineState, rnd: OpenRound) -> tuple[str, ...]:
    """The characters of the round who have not acted and have a standing order."""
    done = acted(rnd)
    names = set(waiting(state, rnd))
    return tuple(
        o.character for o in state.standing if o.character in names and o.character not in done
    )


def standing_posts(state: EngineState, rnd: OpenRound, *, at: datetime) -> OpenRound:
    """The round with a post for each standing order (and default hold) that acts in it: of
    each character that could act and has not, after the round's posts, in the order the
    orders were set, then the holds."""
    done = acted(rnd)
    names = waiting(state, rnd)
    order = state.posts_seen
    posts: list[PostRecord] = []
    for o in state.standing:
        if o.character in names and o.character not in done:
            posts.append(
                PostRecord(post_id=o.acts_as, author=o.author, gm=o.gm, at=at,
                           order=order + len(posts), body=o.text, standing=o.post_id)
            )  # fmt: skip
            done.add(o.character)
    for c in state.campaign.characters:
        free = c.player is not None and c.name in names and c.name not in done
        if free and c.player is not None and state.campaign.holds(c.name):
            posts.append(
                PostRecord(post_id=f"{HOLD}:{c.name}", author=c.player, gm=False, at=at,
                           order=order + len(posts), body=f"[pass | as {c.name}]",
                           standing=HOLD)
            )  # fmt: skip
    return replace(rnd, posts=(*rnd.posts, *posts)) if posts else rnd


def without_standing(rnd: OpenRound) -> OpenRound:
    """The round without the posts its standing orders acted as (what ``!undo`` re-opens)."""
    return replace(rnd, posts=tuple(p for p in rnd.posts if p.standing is None))


def acted_by_order(state: EngineState, rnd: OpenRound) -> tuple[tuple[str, str], ...]:
    """(character, tag) of each standing order (and default hold) that acted as a post of
    the closed round ``rnd``."""
    orders = {o.acts_as: o for o in state.standing}
    found: list[tuple[str, str]] = []
    for post in rnd.posts:
        if post.standing == HOLD:
            found.append((post.post_id.removeprefix(f"{HOLD}:"), "[pass]"))
        elif post.standing is not None and post.post_id in orders:
            order = orders[post.post_id]
            found.append((order.character, order.text))
    return tuple(found)
