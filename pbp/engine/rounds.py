"""Closing a round: the final check of every post, resolution in post order, the report."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from datetime import datetime

from pbp.engine import post_reply, registry
from pbp.engine.effects import Effect, Reply, SummaryContent
from pbp.engine.lazy_dice import DiceForRound, LazyDice
from pbp.engine.pending import Pending
from pbp.engine.problems import RuleBroken
from pbp.engine.reading import Parse, checked_against, read_context, read_post, reading_in
from pbp.engine.report import CorrectionEntry, Rejection, RoundReport
from pbp.engine.roster import Roster
from pbp.engine.ruleset import Closed, Closer, could_not_resolve, guarded
from pbp.engine.slots import Slots
from pbp.engine.standing import acted_by_order, standing_posts, without_standing
from pbp.engine.state import Accepted, ClosedRound, EngineState, OpenRound, PostRecord
from pbp.engine.times import later
from pbp.errors import Problem
from pbp.rules.dice.seeded import RecordingDice
from pbp.rules.dice.source import Dice
from pbp.tags import parse_post
from pbp.tags.commands import BonusCommand, Command, DamageCommand, HealCommand
from pbp.tags.model import Source
from pbp.values import frozen_value, replace

CORRECTIONS = (DamageCommand, HealCommand, BonusCommand)


def summary_key(number: int) -> str:
    """The key of a round's summary reply."""
    return f"summary-{number}"


def open_round(state: EngineState, *, number: int, at: datetime) -> OpenRound:
    """A new round that starts from the state's scene."""
    base = registry.ROSTER.begin_round(state.scene)
    after = state.deadline_after
    deadline = later(at, after) if after is not None else None
    grace = state.grace_after if deadline is not None else None
    return OpenRound(
        number=number, opened_at=at, base=base, start=base, deadline=deadline, grace=grace
    )


def recheck(state: EngineState, rnd: OpenRound, *, parse: Parse = parse_post) -> OpenRound:
    """Every live post of the round checked again in post order, as it reads now (SPEC §4.3).
    Each post's parse is reused unless the scene's names changed since it was read, and its
    verdicts unless something they were read against changed since (``Checked.holds``)."""
    state = replace(state, round=rnd)
    pending = Pending()
    before: list[tuple[str, tuple[Accepted, ...], tuple[Command, ...]]] = []
    posts: list[PostRecord] = []
    contexts = {gm: read_context(state, gm=gm) for gm in (False, True)}  # the same for every post
    for post in rnd.posts:
        if not post.live:
            posts.append(post)
            continue
        reading = reading_in(contexts[post.gm], body=post.body, parse=parse, reuse=post.reading)
        now = checked_against(state, reading=reading, before=tuple(before))
        if post.checked is not None and post.checked.holds(now):
            for accepted in post.accepted:  # what the check would count again
                registry.count(pending, accepted, post.post_id)
        else:
            accepted_now, problems = read_post(state, post=post, reading=reading, pending=pending)
            post = replace(
                post, accepted=accepted_now, problems=problems, reading=reading, checked=now
            )
        for command in post.commands:  # what its commands grant the posts after it
            registry.count_command(pending, command)
        posts.append(post)
        before.append((post.post_id, post.accepted, post.commands))
    return replace(rnd, posts=tuple(posts))


@frozen_value
class _Resolved:
    scene: Roster
    corrections: tuple[CorrectionEntry, ...]
    problems: tuple[Rejection, ...]
    rulesets: Slots  # each ruleset's state after the round
    parts: Slots  # each ruleset's part of the report
    acted: tuple[tuple[str, Problem], ...] = ()  # (post, refusal) of the tags that acted after all


@frozen_value
class _Retry:
    """A tag the rules refused when it was read: it acts if it is valid at its turn
    (RULES §6: the close is authoritative)."""

    accepted: Accepted
    problem: RuleBroken


def _steps(post: PostRecord) -> Iterator[Accepted | Command | _Retry]:
    """A post's accepted tags, its rule-refused tags and its corrections, in the order
    they stand in the post."""
    items: list[tuple[tuple[int, int], Accepted | Command | _Retry]] = [
        ((a.tag.source.line, a.tag.source.column), a) for a in post.accepted
    ]
    items += [
        ((p.line, p.column), _Retry(accepted=p.would_be, problem=p))
        for p in post.problems
        if isinstance(p, RuleBroken) and isinstance(p.would_be, Accepted)
    ]
    items += [
        ((c.source.line, c.source.column), c) for c in post.commands if isinstance(c, CORRECTIONS)
    ]
    for _, item in sorted(items, key=lambda pair: pair[0]):
        yield item


def _claimed(rnd: OpenRound) -> dict[str, set[Hashable]]:
    """The action slots the round's accepted tags take, per character."""
    claimed: dict[str, set[Hashable]] = {}
    for post in rnd.posts:
        if post.live:
            for accepted in post.accepted:
                claimed.setdefault(accepted.actor, set()).update(accepted.slots)
    return claimed


def _take(
    closer: Closer, post: PostRecord, accepted: Accepted, scene: Roster
) -> tuple[Roster, tuple[Rejection, ...]]:
    """An accepted tag at its turn, and the scene as it leaves it; when its rules raise, it is
    void (``Closer.void``), the scene as it was before it, and the close goes on."""

    def void(why: str) -> tuple[Roster, tuple[Rejection, ...]]:
        voided = closer.void(post, accepted, why)
        return scene, (voided,) if voided is not None else ()

    return guarded(lambda: (closer.take(post, accepted, scene), ()), void)


def _finish(
    closer: Closer, taken: list[tuple[str, Source]], state: EngineState, scene: Roster, number: int
) -> Closed:
    """What one ruleset's part of the round did; when its rules raise there (a ruleset that
    resolves its actions together), each tag and command it took is void, its state as it
    was before the round, and the close goes on."""

    def void(why: str) -> Closed:
        return Closed(rejected=tuple(could_not_resolve(p, source, why) for p, source in taken))

    return guarded(lambda: closer.finish(state, scene, number), void)


def resolve(state: EngineState, rnd: OpenRound, *, dice: Dice) -> _Resolved:
    """Resolve the round in post order, each action against the state the earlier ones left.

    Each ruleset resolves its own tags (``engine.registry``); the tags that roll use ``dice``
    (the round's), keyed by post id and tag index. Some resolve at their turn, some together
    after the rest (an interval, a fight in initiative order).
    """
    recording = RecordingDice(dice)
    closers = registry.closers(state, recording)
    scene = rnd.base
    corrections: list[CorrectionEntry] = []
    problems: list[Rejection] = []
    claimed = _claimed(rnd)
    acted: list[tuple[str, Problem]] = []  # refused when read, valid at their turn: they acted
    taken: dict[int, list[tuple[str, Source]]] = {id(c): [] for _, c in closers}  # by closer
    for post in (p for p in rnd.posts if p.live):
        for _, closer in closers:
            closer.post(post)
        for item in _steps(post):
            if isinstance(item, _Retry):
                actor = item.accepted.actor
                if claimed.get(actor, set()) & item.accepted.slots or registry.owner(
                    item.accepted
                ).still_refused(scene, item.accepted):
                    continue  # its slot is taken, or it is still refused: the refusal stands
                claimed.setdefault(actor, set()).update(item.accepted.slots)
                acted.append((post.post_id, item.problem))
                item = item.accepted
            if isinstance(item, Accepted):
                owner = registry.owner(item)
                closer = next(c for r, c in closers if r is owner)
                scene, voided = _take(closer, post, item, scene)
                problems += voided
                if not voided:
                    taken[id(closer)].append((post.post_id, item.tag.source))
                continue
            taker = next((c for _, c in closers if c.command(post, item)), None)
            if taker is not None:
                taken[id(taker)].append((post.post_id, item.source))
                continue
            # no closer took it: a correction of what a ruleset keeps of the roster
            scene, done = registry.correct(scene, item, post_id=post.post_id)
            if isinstance(done, CorrectionEntry):
                corrections.append(done)
            elif done is not None:
                problems.append(Rejection(post_id=post.post_id, tag=done.tag, problem=done))
    rulesets, parts = state.rulesets, Slots()
    for _, closer in closers:
        closed = _finish(closer, taken[id(closer)], state, scene, rnd.number)
        corrections += closed.corrections
        problems += closed.rejected
        if closed.state is not None:
            rulesets = rulesets.put(closed.state)
        if closed.part is not None:
            parts = parts.put(closed.part)
    return _Resolved(
        scene=registry.ROSTER.end_round(scene),
        corrections=tuple(corrections),
        problems=tuple(problems),
        rulesets=rulesets,
        parts=parts,
        acted=tuple(acted),
    )


def after_close(
    state: EngineState, parts: Slots, notes: tuple[str, ...]
) -> tuple[EngineState, tuple[str, ...]]:
    """What each ruleset's outcome of the round does to the scene (RULES M8: a skirmish lost
    becomes a battle, one won ends)."""
    for ruleset in registry.ALL:
        state, notes = ruleset.after_close(state, parts, notes)
    return state, notes


def _with_roster(parts: Slots, *, before: Roster, after: Roster, rested: bool) -> Slots:
    """The rulesets' parts of the report with the roster's: the characters as the round left
    them, and what a rest healed."""
    for own in registry.roster_reports(before=before, after=after, rested=rested):
        parts = parts.put(own)
    return parts


def _not_acted(state: EngineState, rnd: OpenRound, gone: frozenset[str]) -> tuple[str, ...]:
    """The player characters without an action, not counting those out (``gone``: put out
    of play by a ruleset, at the start of the round or by its close)."""
    acted = {a.actor for p in rnd.posts if p.live for a in p.accepted}
    pcs = [c.name for c in state.campaign.characters if c.player is not None]
    return tuple(
        n
        for n in pcs
        if n in rnd.start.names() and n not in acted and not rnd.start.is_out(n) and n not in gone
    )


def _close_replies(
    state: EngineState, rnd: OpenRound, acted: set[tuple[str, int]]
) -> tuple[OpenRound, list[Effect]]:
    """The replies of the round's posts edited where the close's verdict is not the one they
    give: a fix or a typo only the close's re-read saw, refusals that acted after all (RULES
    §6). The close adds no reply: its summary lists what was refused."""
    posts: list[PostRecord] = []
    effects: list[Effect] = []
    for post in rnd.posts:
        if post.live and post.reply is not None:
            own = tuple(pr for pr in post.problems if (post.post_id, id(pr)) in acted)
            post, said = post_reply.reword(state, post, acted=own, closed=True)
            effects += [said] if said is not None else []
        posts.append(post)
    return replace(rnd, posts=tuple(posts)), effects


def close_round(
    state: EngineState,
    *,
    at: datetime,
    closed_by: str,
    reply_to: str | None,
    dice: DiceForRound,
    after: Callable[[Roster], Roster] | None = None,
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
    rnd = recheck(state, state.round, parse=parse)
    # the standing orders of those who have not acted, at the close's place (issue 29)
    rnd = recheck(state, standing_posts(state, rnd, at=at), parse=parse)
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
    rnd, effects = _close_replies(state, rnd, acted)
    pcs = {c.name for c in state.campaign.characters if c.player is not None}
    before = state.rulesets
    state = replace(state, scene=scene, rulesets=done.rulesets)
    not_acted = _not_acted(state, rnd, registry.out_of_play(state))
    state, notes = after_close(state, done.parts, notes)
    nxt = open_round(state, number=rnd.number + 1, at=opens_at or at)
    report = RoundReport(
        number=rnd.number,
        scene=state.scene_kind.value,
        opened_at=rnd.opened_at,
        closed_at=at,
        closed_by=closed_by,
        corrections=done.corrections,
        rejected=rejected,
        npcs=frozenset(n for n in scene.names() if n not in pcs),
        not_acted=not_acted,
        late_edits=state.late_edits,
        next_deadline=nxt.deadline,
        next_round=nxt.number,
        notes=notes,
        parts=_with_roster(done.parts, before=done.scene, after=scene, rested=after is not None),
        done=rnd.done,
        standing=acted_by_order(state, rnd),
    )
    closed = ClosedRound(
        report=report,
        reopen=replace(without_standing(rnd), undone=False),
        scene_kind=state.scene_kind,
        before=before,
    )
    # `!undo` re-opens the last round only while the round after it has no action: a round
    # with actions ends the chain (SPEC §2.5 `!undo`)
    undoable = (closed,) if rnd.has_actions else (*state.closed, closed)
    state = replace(
        state,
        round=nxt,
        closed=undoable,
        late_edits=(),
        closed_posts=state.closed_posts | {p.post_id for p in rnd.posts if p.standing is None},
    )
    summary = SummaryContent(report=report, posts=rnd.posts, again=rnd.undone)
    effects.append(Reply(key=summary_key(rnd.number), to=reply_to, content=summary))
    return state, effects
