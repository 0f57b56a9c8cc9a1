"""Closing a round: the final check of every post, resolution in post order, the report."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pbp.campaign.model import Campaign
from pbp.engine.abstract_model import ABSTRACT_INTENTS, AbstractReport, AbstractState
from pbp.engine.abstract_resolve import AbstractItem, resolve_abstract
from pbp.engine.d20_model import D20_INTENTS, D20Entry, D20Intent, D20Record, D20State, intent_verb
from pbp.engine.d20_resolve import D20Context, resolve_d20
from pbp.engine.d20_tags import pool_size
from pbp.engine.distat_tags import Pending
from pbp.engine.effects import (
    ActedContent,
    EditReply,
    Effect,
    FixedContent,
    Reply,
    SummaryContent,
)
from pbp.engine.lazy_dice import DiceForRound, LazyDice
from pbp.engine.markhor_model import MARKHOR_INTENTS, MarkhorReport, MarkhorState
from pbp.engine.markhor_resolve import (
    MarkhorItem,
    PoolFix,
    correct_pools,
    resolve_markhor,
    skirmish_formula,
    with_pools,
)
from pbp.engine.problems import (
    COULD_NOT_RESOLVE,
    MarkhorRefused,
    RuleBroken,
    failure_text,
    refusal,
    scene_phrase,
)
from pbp.engine.reading import Parse, parse_for, read_post
from pbp.engine.report import ActionEntry, CorrectionEntry, Rejection, RoundReport
from pbp.engine.setup import apply_correction, recoveries
from pbp.engine.state import Accepted, ClosedRound, EngineState, OpenRound, PostRecord
from pbp.errors import Problem
from pbp.rules import distat
from pbp.rules.dice.seeded import RecordingDice
from pbp.rules.dice.source import Dice
from pbp.rules.distat import DistatScene
from pbp.tags import parse_post
from pbp.tags.commands import BonusCommand, Command, DamageCommand, HealCommand, OpposeCommand
from pbp.tags.model import SceneKind

CORRECTIONS = (DamageCommand, HealCommand, BonusCommand)


def summary_key(number: int) -> str:
    """The key of a round's summary reply."""
    return f"summary-{number}"


def problems_key(post_id: str) -> str:
    """The key of a post's error reply."""
    return f"problems-{post_id}"


def open_round(state: EngineState, *, number: int, at: datetime) -> OpenRound:
    """A new round that starts from the state's scene."""
    base = distat.begin_round(state.scene)
    deadline = at + state.deadline_after if state.deadline_after is not None else None
    return OpenRound(number=number, opened_at=at, base=base, start=base, deadline=deadline)


def recheck(
    state: EngineState, rnd: OpenRound, *, parse: Parse = parse_post
) -> tuple[OpenRound, list[Effect]]:
    """Every live post of the round checked again in post order, as it reads now (SPEC §4.3).
    Each post's parse is reused unless the scene's names changed since it was read."""
    state = replace(state, round=rnd)
    pending = Pending()
    posts: list[PostRecord] = []
    effects: list[Effect] = []
    for post in rnd.posts:
        if not post.live:
            posts.append(post)
            continue
        reading = parse_for(state, body=post.body, gm=post.gm, parse=parse, reuse=post.reading)
        accepted, problems = read_post(state, post=post, reading=reading, pending=pending)
        if post.error_replied and not problems and post.problems:
            effects.append(
                EditReply(
                    key=problems_key(post.post_id), content=FixedContent(post_id=post.post_id)
                )
            )
        posts.append(replace(post, accepted=accepted, problems=problems, reading=reading))
    return replace(rnd, posts=tuple(posts)), effects


@dataclass(frozen=True, slots=True, kw_only=True)
class _Resolved:
    scene: DistatScene
    actions: tuple[ActionEntry, ...]
    corrections: tuple[CorrectionEntry, ...]
    problems: tuple[Rejection, ...]
    d20: D20State
    d20_actions: tuple[D20Entry, ...]
    abstract: AbstractState
    abstract_report: AbstractReport | None
    markhor: MarkhorState
    markhor_report: MarkhorReport | None
    acted: tuple[tuple[str, Problem], ...] = ()  # (post, refusal) of the tags that acted after all


@dataclass(slots=True)
class _D20Run:
    """The d20 side of one round's resolution: its state, its entries, its recorded dice."""

    campaign: Campaign
    d20: D20State
    dice: RecordingDice
    entries: list[D20Entry]

    def resolve(self, post: PostRecord, item: Accepted, intent: D20Intent) -> None:
        index = item.tag.source.index
        roller = self.dice.for_key(post.post_id, index)  # SPEC §6: (post id, tag index, roll)
        seen = len(self.dice.records)
        ctx = D20Context(d20=self.d20, pool=pool_size(self.campaign, self.d20, item.actor))
        try:
            self.d20, record = resolve_d20(intent, ctx=ctx, roller=roller)
        except Exception:  # one action's failure never loses the close: it is void
            record = D20Record(actor=item.actor, verb=intent_verb(intent), outcome="void",
                               reason=COULD_NOT_RESOLVE)
        record = replace(record, rolls=self.dice.records[seen:])
        self.entries.append(
            D20Entry(
                post_id=post.post_id,
                author=post.author,
                tag=item.tag.source.text,
                record=record,
                on_behalf=item.on_behalf,
                order=(post.order, index),
            )
        )


def _distat(scene: DistatScene, intent: distat.Intent) -> tuple[DistatScene, tuple[Any, ...]]:
    """A Distat action resolved; one whose resolution fails is void with what failed, and the
    round goes on (no exception inside one action may lose a close)."""
    try:
        return distat.resolve(scene, intent)
    except Exception as error:
        why = distat.CouldNotResolve(error=failure_text(error))
        return scene, distat.void_records(intent, why)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Retry:
    """A Distat tag the rules refused when it was read: it acts if it is valid at its turn
    (RULES §6: the close is authoritative)."""

    accepted: Accepted
    problem: RuleBroken


def _steps(post: PostRecord) -> Iterator[Accepted | Command | _Retry]:
    """A post's accepted tags, its rule-refused Distat tags and its corrections, in the order
    they stand in the post."""
    items: list[tuple[tuple[int, int], Accepted | Command | _Retry]] = [
        ((a.tag.source.line, a.tag.source.column), a) for a in post.accepted
    ]
    items += [
        ((p.line, p.column), _Retry(accepted=p.would_be, problem=p)) for p in post.problems
        if isinstance(p, RuleBroken) and isinstance(p.would_be, Accepted)
    ]
    items += [
        ((c.source.line, c.source.column), c) for c in post.commands if isinstance(c, CORRECTIONS)
    ]
    for _, item in sorted(items, key=lambda pair: pair[0]):
        yield item


def _claimed(rnd: OpenRound) -> dict[str, set[str]]:
    """The action slots the round's accepted tags take, per character."""
    claimed: dict[str, set[str]] = {}
    for post in rnd.posts:
        if post.live:
            for accepted in post.accepted:
                claimed.setdefault(accepted.actor, set()).update(accepted.slots)
    return claimed


def _opposes(post: PostRecord) -> list[tuple[PostRecord, OpposeCommand]]:
    """A post's ``!oppose`` lines that were not refused when read."""
    refused = {p.line for p in post.command_problems}
    return [
        (post, c) for c in post.commands
        if isinstance(c, OpposeCommand) and c.source.line not in refused
    ]  # fmt: skip


def resolve(state: EngineState, rnd: OpenRound, *, dice: Dice) -> _Resolved:
    """Resolve the round in post order, each action against the state the earlier ones left.

    d20 and abstract tags roll with ``dice`` (the round's), keyed by post id and tag index;
    the abstract tags resolve together after the rest (RULES E9, E12: the interval's
    opposition and Reaction Dice come first).
    """
    recording = RecordingDice(dice)
    run = _D20Run(campaign=state.campaign, d20=state.d20, dice=recording, entries=[])
    abstract = state.abstract
    scene = rnd.base
    actions: list[ActionEntry] = []
    corrections: list[CorrectionEntry] = []
    problems: list[Rejection] = []
    abstract_items: list[AbstractItem] = []
    markhor_items: list[MarkhorItem] = []
    opposes: list[tuple[PostRecord, OpposeCommand]] = []
    pool_fixes: list[PoolFix] = []
    claimed = _claimed(rnd)
    acted: list[tuple[str, Problem]] = []  # refused when read, valid at their turn: they acted
    for post in (p for p in rnd.posts if p.live):
        opposes += _opposes(post)
        for item in _steps(post):
            if isinstance(item, _Retry):
                intent, actor = item.accepted.intent, item.accepted.actor
                assert not isinstance(intent, (*D20_INTENTS, *ABSTRACT_INTENTS, *MARKHOR_INTENTS))
                if (claimed.get(actor, set()) & item.accepted.slots
                        or distat.validate(scene, intent)):
                    continue  # its slot is taken, or it is still refused: the refusal stands
                claimed.setdefault(actor, set()).update(item.accepted.slots)
                acted.append((post.post_id, item.problem))
                item = item.accepted
            if isinstance(item, DamageCommand | HealCommand) and item.stat in ("hp", "wp"):
                pool_fixes.append((post, item))
                continue
            if isinstance(item, Accepted) and isinstance(item.intent, ABSTRACT_INTENTS):
                abstract_items.append(AbstractItem(post=post, accepted=item))
                continue
            if isinstance(item, Accepted) and isinstance(item.intent, MARKHOR_INTENTS):
                markhor_items.append(MarkhorItem(post=post, accepted=item))
                continue
            if isinstance(item, Accepted) and isinstance(item.intent, D20_INTENTS):
                run.resolve(post, item, item.intent)
                continue
            if isinstance(item, Accepted):
                assert not isinstance(item.intent, D20_INTENTS)
                assert not isinstance(item.intent, ABSTRACT_INTENTS)
                assert not isinstance(item.intent, MARKHOR_INTENTS)
                scene, records = _distat(scene, item.intent)
                actions += [
                    ActionEntry(
                        post_id=post.post_id,
                        author=post.author,
                        tag=item.tag.source.text,
                        record=r,
                        on_behalf=item.on_behalf,
                    )
                    for r in records
                ]
                continue
            scene, done = apply_correction(scene, item, post_id=post.post_id)
            if isinstance(done, CorrectionEntry):
                corrections.append(done)
            elif done is not None:
                problems.append(Rejection(post_id=post.post_id, tag=done.tag, problem=done))
    report: AbstractReport | None = None
    if abstract_items or opposes:
        abstract, report = resolve_abstract(
            abstract_items, opposes=opposes, abstract=abstract, dice=recording
        )
    markhor, fight = state.markhor, None
    if state.scene_kind in (SceneKind.SKIRMISH, SceneKind.BATTLE):
        markhor, fight, fixed, refused = _fight(
            state, scene, rnd.number, markhor_items, pool_fixes, recording
        )
        corrections += fixed
        problems += refused
    else:
        problems += [_not_fight(state, post, command) for post, command in pool_fixes]
    return _Resolved(
        scene=distat.end_round(scene),
        actions=tuple(actions),
        corrections=tuple(corrections),
        problems=tuple(problems),
        d20=run.d20,
        d20_actions=tuple(run.entries),
        abstract=abstract,
        abstract_report=report,
        markhor=markhor,
        markhor_report=fight,
        acted=tuple(acted),
    )


def _fight(
    state: EngineState,
    scene: DistatScene,
    number: int,
    items: list[MarkhorItem],
    fixes: list[PoolFix],
    dice: RecordingDice,
) -> tuple[MarkhorState, MarkhorReport, list[CorrectionEntry], list[Rejection]]:
    """A skirmish or battle round: every entity's pools, the GM's HP/WP corrections, then the
    turns in initiative order."""
    entities = [(n, distat.view(scene, n).side) for n in distat.names(scene)]
    formula = skirmish_formula(state.campaign)
    markhor = with_pools(state.markhor, entities, state.scores, formula=formula)
    markhor, fixed, refused = correct_pools(markhor, fixes)
    markhor, report = resolve_markhor(
        items, markhor=markhor, entities=entities, scores=state.scores, dice=dice,
        round_number=number, formula=formula,
    )  # fmt: skip
    rejected = [Rejection(post_id=p, tag=pr.tag, problem=pr) for p, pr in refused]
    return markhor, report, fixed, rejected


def _not_fight(
    state: EngineState, post: PostRecord, command: DamageCommand | HealCommand
) -> Rejection:
    """HP and WP belong to a skirmish or battle; Distat corrects Body and Mind."""
    src = command.source
    detail = f"this thread runs {scene_phrase(state.scene_kind)}"
    refused = refusal(MarkhorRefused, source=src, cause="not_fight", detail=detail)
    return Rejection(post_id=post.post_id, tag=src.text, problem=refused)


def after_fight(
    state: EngineState, fight: MarkhorReport | None, notes: tuple[str, ...]
) -> tuple[EngineState, tuple[str, ...]]:
    """RULES M8: a skirmish the party lost becomes a battle on the real HP and WP (the
    skirmish pools are dismissed); one it won ends, and the campaign's own scene follows."""
    if fight is None or fight.ended is None:
        return state, notes
    if fight.ended == "party_failed":
        battle = MarkhorState.fresh(SceneKind.BATTLE)
        return replace(state, scene_kind=SceneKind.BATTLE, markhor=battle), (
            *notes, "skirmish_lost",
        )
    ruleset = state.campaign.ruleset
    return replace(state, scene_kind=ruleset, markhor=MarkhorState.fresh(ruleset)), (
        *notes, "skirmish_won",
    )


def _not_acted(state: EngineState, rnd: OpenRound) -> tuple[str, ...]:
    acted = {a.actor for p in rnd.posts if p.live for a in p.accepted}
    pcs = [c.name for c in state.campaign.characters if c.player is not None]
    return tuple(
        n
        for n in pcs
        if n in distat.names(rnd.start)
        and n not in acted
        and distat.view(rnd.start, n).status != "out"
    )


def close_round(
    state: EngineState,
    *,
    at: datetime,
    closed_by: str,
    reply_to: str | None,
    dice: DiceForRound,
    after: Callable[[DistatScene], DistatScene] | None = None,
    notes: tuple[str, ...] = (),
    opens_at: datetime | None = None,
    parse: Parse = parse_post,
) -> tuple[EngineState, list[Effect]]:
    """Close the open round: check every post again, resolve, report, open the next round.

    ``dice`` gives a round's dice; this round's are fetched only if a tag rolls. The next
    round opens at ``opens_at`` (default ``at``): a deadline missed while the bot was stopped
    closes the round at the deadline, and the next one counts from when the bot saw it.
    """
    assert state.round is not None
    rnd, effects = recheck(state, state.round, parse=parse)
    done = resolve(state, rnd, dice=LazyDice(dice, rnd.number))
    scene = after(done.scene) if after is not None else done.scene
    acted = {(post_id, id(problem)) for post_id, problem in done.acted}
    rejected = (
        tuple(
            Rejection(post_id=p.post_id, tag=pr.tag, problem=pr)
            for p in rnd.posts
            if p.live
            for pr in (*p.command_problems, *p.problems)
            if (p.post_id, id(pr)) not in acted
        )
        + done.problems
    )
    for post in rnd.posts:  # every refusal of a post acted after all: its reply says so
        own = [pr for pr in post.problems if (post.post_id, id(pr)) in acted]
        if own and len(own) == len(post.problems) and post.error_replied:
            effects.append(EditReply(key=problems_key(post.post_id),
                                     content=ActedContent(post_id=post.post_id)))
    pcs = {c.name for c in state.campaign.characters if c.player is not None}
    d20_before = state.d20
    abstract_before, markhor_before = state.abstract, state.markhor
    state = replace(
        state, scene=scene, d20=done.d20, abstract=done.abstract, markhor=done.markhor
    )
    state, notes = after_fight(state, done.markhor_report, notes)
    nxt = open_round(state, number=rnd.number + 1, at=opens_at or at)
    report = RoundReport(
        number=rnd.number,
        scene=state.scene_kind.value,
        opened_at=rnd.opened_at,
        closed_at=at,
        closed_by=closed_by,
        actions=done.actions,
        corrections=done.corrections,
        rejected=rejected,
        characters=tuple(distat.view(scene, n) for n in distat.names(scene)),
        npcs=frozenset(n for n in distat.names(scene) if n not in pcs),
        not_acted=_not_acted(state, rnd),
        late_edits=state.late_edits,
        next_deadline=nxt.deadline,
        next_round=nxt.number,
        notes=notes,
        d20=done.d20_actions,
        abstract=done.abstract_report,
        markhor=done.markhor_report,
        done=rnd.done,
        recovered=recoveries(done.scene, scene) if after is not None else (),
    )
    closed = ClosedRound(
        report=report,
        reopen=rnd,
        scene_kind=state.scene_kind,
        d20_before=d20_before,
        abstract_before=abstract_before,
        markhor_before=markhor_before,
    )
    # `!undo` re-opens the last round only while the round after it has no action: a round
    # with actions ends the chain (SPEC §4.4 `!undo`)
    undoable = (closed,) if rnd.has_actions else (*state.closed, closed)
    state = replace(
        state,
        round=nxt,
        closed=undoable,
        late_edits=(),
        closed_posts=state.closed_posts | {p.post_id for p in rnd.posts},
    )
    summary = SummaryContent(report=report, posts=rnd.posts)
    effects.append(Reply(key=summary_key(rnd.number), to=reply_to, content=summary))
    return state, effects
