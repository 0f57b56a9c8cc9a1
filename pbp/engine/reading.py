"""Reading one post against the scene as it stands: its tags' verdicts (SPEC §4.2)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from pbp.campaign.model import Campaign
from pbp.engine import registry
from pbp.engine.actors import choose_actor
from pbp.engine.pending import Pending
from pbp.engine.problems import RulesetUnavailable
from pbp.engine.registry import ruleset_for
from pbp.engine.roster import Roster
from pbp.engine.ruleset import TagContext
from pbp.engine.slots import Slots
from pbp.engine.state import Accepted, Before, Checked, EngineState, PostRecord, Reading
from pbp.errors import Problem
from pbp.tags import ParsedPost, ReadContext, parse_post
from pbp.tags.commands import Command
from pbp.tags.model import SceneKind
from pbp.values import replace


class Parse(Protocol):
    """The tag reader's entry point (``pbp.tags.parse_post``), as the engine takes it."""

    def __call__(self, text: str, /, *, context: ReadContext) -> ParsedPost: ...


def context_for(
    *, scene: Roster, kind: SceneKind, gm: bool, tasks: tuple[str, ...] = ()
) -> ReadContext:
    """The names a post is read against: the scene's characters, features, talents and
    abstract tasks."""
    return ReadContext(
        scene=kind,
        characters=scene.names(),
        features=scene.feature_names(),
        talents=scene.talent_names(),
        tasks=tasks,
        gm=gm,
    )


def parse(
    *, body: str, scene: Roster, kind: SceneKind, gm: bool, tasks: tuple[str, ...] = ()
) -> ParsedPost:
    """Parse a post's text against the scene."""
    return parse_post(body, context=context_for(scene=scene, kind=kind, gm=gm, tasks=tasks))


def is_command_problem(problem: Problem) -> bool:
    """Whether a problem belongs to a command line rather than to a tag."""
    return problem.tag.lstrip().startswith("!")


def live_before(posts: Iterable[PostRecord], *, stop: str | None) -> Before:
    """The round's live posts before ``stop`` (all of them when None): id and accepted tags."""
    before: list[tuple[str, tuple[Accepted, ...], tuple[Command, ...]]] = []
    for post in posts:
        if post.post_id == stop:
            break
        if post.live:
            before.append((post.post_id, post.accepted, post.commands))
    return tuple(before)


def pending_of(before: Before) -> Pending:
    """What these posts' accepted tags already use, and what their commands grant."""
    pending = Pending()
    for post_id, accepted, commands in before:
        count_post(pending, post_id, accepted, commands)
    return pending


def count_post(
    pending: Pending, post_id: str, accepted: tuple[Accepted, ...], commands: tuple[Command, ...]
) -> None:
    """Count one post of the round: its accepted tags, then its commands that act in the
    round's order (a GM's ``!bonus`` before a tag that spends it, RULES §7.5)."""
    for one in accepted:
        registry.count(pending, one, post_id)
    for command in commands:
        registry.count_command(pending, command)


def checked_against(state: EngineState, *, reading: Reading, before: Before) -> Checked:
    """What a post's tags are checked against in the open round as it stands (``read_post``)."""
    assert state.round is not None
    return Checked(
        reading=reading,
        scene=state.round.base,
        kind=state.scene_kind,
        rulesets=state.rulesets,
        campaign=state.campaign,
        npc_scores=state.npc_scores,
        before=before,
    )


def check_tags(
    *,
    parsed: ParsedPost,
    campaign: Campaign,
    author: str,
    post_id: str,
    scene: Roster,
    kind: SceneKind,
    pending: Pending,
    rulesets: Slots | None = None,
    scores: Callable[[str], Mapping[str, int | None]] | None = None,
) -> tuple[tuple[Accepted, ...], tuple[Problem, ...]]:
    """Each tag of a parsed post accepted or refused, in order; ``pending`` counts the accepted.

    ``rulesets`` holds each ruleset's state (a d20 scene's pools, an abstract scene's tasks,
    a fight's pools), ``scores`` each character's sheet numbers (Stamina: battle AP).
    """
    accepted: list[Accepted] = []
    # problems of command lines belong to the first version, read once (SPEC §2.5)
    problems: list[Problem] = [p for p in parsed.problems if not is_command_problem(p)]
    ctx = TagContext(
        campaign=campaign,
        scene=scene,
        pending=pending,
        rulesets=rulesets or Slots(),
        scores=scores or (lambda _name: {}),
        post_id=post_id,
    )
    for tag in parsed.tags:
        ruleset = ruleset_for(tag, kind)
        if ruleset is None:
            problems.append(
                RulesetUnavailable(
                    tag=tag.source.text,
                    line=tag.source.line,
                    column=tag.source.column,
                    ruleset=kind.value,
                )
            )
            continue
        actor = choose_actor(
            campaign=campaign,
            author=author,
            as_name=tag.as_name,
            tag=tag.source.text,
            scene_names=scene.names(),
        )
        if isinstance(actor, Problem):
            problems.append(_at(actor, tag.source.line, tag.source.column))
            continue
        filled = ruleset.fill(tag, actor.name, campaign)  # what the tag leaves to the sheets
        if isinstance(filled, Problem):
            problems.append(filled)
            continue
        tag = filled
        verdict = ruleset.check(tag, actor, ctx)
        if isinstance(verdict, Accepted):
            verdict = replace(verdict, notes=ruleset.notes(verdict, ctx))
            accepted.append(verdict)
            registry.count(pending, verdict, post_id)
        else:
            problems.append(verdict)
    problems.sort(key=lambda p: (p.line, p.column))
    return tuple(accepted), tuple(problems)


def _at(problem: Problem, line: int, column: int) -> Problem:
    return replace(problem, line=line, column=column)


def read_context(state: EngineState, *, gm: bool) -> ReadContext:
    """The names a post is read against in the open round as it stands."""
    assert state.round is not None
    return context_for(
        scene=state.round.base, kind=state.scene_kind, gm=gm, tasks=registry.tasks(state)
    )


def parse_for(
    state: EngineState,
    *,
    body: str,
    gm: bool,
    parse: Parse = parse_post,
    reuse: Reading | None = None,
) -> Reading:
    """A post version read against the open round's scene as it stands: ``reuse`` (an earlier
    reading of the same text) when the names it was read against are still the same, else
    the text parsed again (a set-up command added or removed a name since)."""
    return reading_in(read_context(state, gm=gm), body=body, parse=parse, reuse=reuse)


def reading_in(
    context: ReadContext, *, body: str, parse: Parse = parse_post, reuse: Reading | None = None
) -> Reading:
    """A post version read against ``context``: ``reuse`` when it was read against the same
    names, else the text parsed again."""
    if reuse is not None and reuse.context == context:
        return reuse
    return Reading(context=context, parsed=parse(body, context=context))


def read_post(
    state: EngineState, *, post: PostRecord, reading: Reading, pending: Pending
) -> tuple[tuple[Accepted, ...], tuple[Problem, ...]]:
    """The verdicts of ``reading`` (a version of ``post``) against the open round as it stands."""
    assert state.round is not None
    return check_tags(
        parsed=reading.parsed,
        campaign=state.campaign,
        author=post.author,
        post_id=post.post_id,
        scene=state.round.base,
        kind=state.scene_kind,
        pending=pending,
        rulesets=state.rulesets,
        scores=state.scores,
    )
