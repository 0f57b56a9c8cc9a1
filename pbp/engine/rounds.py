"""Closing a round: the final check of every post, resolution in post order, the report."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime

from pbp.engine.distat_tags import Pending
from pbp.engine.effects import EditReply, Effect, FixedContent, Reply, SummaryContent
from pbp.engine.reading import check_tags, parse
from pbp.engine.report import ActionEntry, CorrectionEntry, Rejection, RoundReport
from pbp.engine.setup import apply_correction
from pbp.engine.state import Accepted, ClosedRound, EngineState, OpenRound, PostRecord
from pbp.rules import distat
from pbp.rules.distat import DistatScene
from pbp.tags.commands import BonusCommand, Command, DamageCommand, HealCommand

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


def recheck(state: EngineState, rnd: OpenRound) -> tuple[OpenRound, list[Effect]]:
    """Every live post of the round checked again in post order, as it reads now (SPEC §4.3)."""
    pending = Pending()
    posts: list[PostRecord] = []
    effects: list[Effect] = []
    for post in rnd.posts:
        if not post.live:
            posts.append(post)
            continue
        parsed = parse(body=post.body, scene=rnd.base, kind=state.scene_kind, gm=post.gm)
        accepted, problems = check_tags(
            parsed=parsed,
            campaign=state.campaign,
            author=post.author,
            post_id=post.post_id,
            scene=rnd.base,
            kind=state.scene_kind,
            pending=pending,
        )
        if post.error_replied and not problems and post.problems:
            effects.append(
                EditReply(
                    key=problems_key(post.post_id), content=FixedContent(post_id=post.post_id)
                )
            )
        posts.append(replace(post, accepted=accepted, problems=problems))
    return replace(rnd, posts=tuple(posts)), effects


@dataclass(frozen=True, slots=True, kw_only=True)
class _Resolved:
    scene: DistatScene
    actions: tuple[ActionEntry, ...]
    corrections: tuple[CorrectionEntry, ...]
    problems: tuple[Rejection, ...]


def _steps(post: PostRecord) -> Iterator[Accepted | Command]:
    """A post's accepted tags and corrections in the order they stand in the post."""
    items: list[tuple[tuple[int, int], Accepted | Command]] = [
        ((a.tag.source.line, a.tag.source.column), a) for a in post.accepted
    ]
    items += [
        ((c.source.line, c.source.column), c) for c in post.commands if isinstance(c, CORRECTIONS)
    ]
    for _, item in sorted(items, key=lambda pair: pair[0]):
        yield item


def resolve(rnd: OpenRound) -> _Resolved:
    """Resolve the round in post order, each action against the state the earlier ones left."""
    scene = rnd.base
    actions: list[ActionEntry] = []
    corrections: list[CorrectionEntry] = []
    problems: list[Rejection] = []
    for post in (p for p in rnd.posts if p.live):
        for item in _steps(post):
            if isinstance(item, Accepted):
                scene, records = distat.resolve(scene, item.intent)
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
    return _Resolved(
        scene=distat.end_round(scene),
        actions=tuple(actions),
        corrections=tuple(corrections),
        problems=tuple(problems),
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
    after: Callable[[DistatScene], DistatScene] | None = None,
    notes: tuple[str, ...] = (),
) -> tuple[EngineState, list[Effect]]:
    """Close the open round: check every post again, resolve, report, open the next round."""
    assert state.round is not None
    rnd, effects = recheck(state, state.round)
    done = resolve(rnd)
    scene = after(done.scene) if after is not None else done.scene
    rejected = (
        tuple(
            Rejection(post_id=p.post_id, tag=pr.tag, problem=pr)
            for p in rnd.posts
            if p.live
            for pr in (*p.command_problems, *p.problems)
        )
        + done.problems
    )
    pcs = {c.name for c in state.campaign.characters if c.player is not None}
    state = replace(state, scene=scene)
    nxt = open_round(state, number=rnd.number + 1, at=at)
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
    )
    closed = ClosedRound(report=report, reopen=rnd, scene_kind=state.scene_kind)
    state = replace(
        state,
        round=nxt,
        closed=(*state.closed, closed),
        late_edits=(),
        closed_posts=state.closed_posts | {p.post_id for p in rnd.posts},
    )
    effects.append(
        Reply(key=summary_key(rnd.number), to=reply_to, content=SummaryContent(report=report))
    )
    return state, effects
