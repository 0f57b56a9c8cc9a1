"""Every reply the bot posts, rendered from its content and the thread's state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

import jinja2

from pbp.campaign.model import Campaign
from pbp.engine.effects import (
    AckModeContent,
    AllActedContent,
    CheatSheetContent,
    Content,
    HelpContent,
    MovedContent,
    PreviewContent,
    PrivateReply,
    ReminderContent,
    SheetContent,
    StatusContent,
    SummaryContent,
    UndoneContent,
)
from pbp.engine.notes import Note
from pbp.engine.orders import TurnBoard
from pbp.engine.post_contents import (
    AckContent,
    ActedContent,
    DeletedContent,
    DoneContent,
    FixedContent,
    ProblemsContent,
    VoidedContent,
)
from pbp.engine.report import Rejection
from pbp.engine.roster import Roster
from pbp.engine.state import EngineState
from pbp.errors import Problem
from pbp.render.disclosure import Disclosure, Hidden, disclosure_for
from pbp.render.problems import (
    SEPARATOR,
    Examples,
    render_problem,
    render_problem_reply,
)
from pbp.render.registry import ALL, NPC_NUMBERS, ROSTER, VIEWS
from pbp.render.tables import Shown, Table
from pbp.render.views import summary_view
from pbp.rules.dice.seal import seal
from pbp.tags.model import SceneKind
from pbp.values import frozen_value, replace


@frozen_value
class Replies:
    """Renders contents for one thread; ``seed_for`` gives each round's dice seed. ``full``
    shows every number whatever the campaign's visibility (the GM's private view)."""

    env: jinja2.Environment
    seed_for: Callable[[int], str | None]
    full: bool = False

    def render(self, content: Content, *, state: EngineState, full: bool = False) -> str:
        """The Markdown text of one reply (``full``: with every number shown)."""
        state = _read_at(content, state)
        if full and not self.full:
            return replace(self, full=True).render(content, state=state)
        if isinstance(content, ProblemsContent | AckContent | DoneContent) and content.all_acted:
            # the post that made everyone acted: its own reply tells the GMs
            told = self.render(AllActedContent(gms=content.all_acted), state=state)
            return self.render(replace(content, all_acted=()), state=state) + "\n" + told
        if isinstance(content, ProblemsContent):
            text = self._problems(content.problems, post_id=content.post_id, state=state)
            if content.closed:  # the close found them: the templates' "edit before" is past
                return (
                    self.env.get_template("closed_problems.md.j2").render().strip() + "\n\n" + text
                )
            return text
        if isinstance(content, DoneContent):
            return self._post_reply(content, state=state)
        name, view = self._view(content, state)
        return self.env.get_template(f"{name}.md.j2").render(**view).strip() + "\n"

    def _problems(self, problems: tuple[Problem, ...], *, post_id: str, state: EngineState) -> str:
        post = state.round.post(post_id) if state.round is not None else None
        examples = examples_for(state, author=post.author if post is not None else None)
        return render_problem_reply(
            problems, env=self.env, examples=examples, hidden=self._hidden(state)
        )

    def _post_reply(self, content: DoneContent, *, state: EngineState) -> str:
        """A GM post's one reply: what its commands did, the closing commands refused, and
        what it says of its tags, each in its own template (a campaign's own ``done`` template
        words the first part alone)."""
        parts: list[str] = []
        if content.done:
            _, view = self._view(content, state)
            parts.append(self.env.get_template("done.md.j2").render(**view).strip())
        if content.refused:
            parts.append(
                self._problems(content.refused, post_id=content.post_id, state=state).strip()
            )
        if content.then is not None:
            parts.append(self.render(content.then, state=state).strip())
        return SEPARATOR.join(parts) + "\n"

    def private(self, effect: PrivateReply, *, state: EngineState, thread: str) -> tuple[str, str]:
        """The subject and text of a private message about ``thread``."""
        state = _read_at(effect.content, state)
        body = self.render(effect.content, state=state, full=effect.full)
        content = effect.content
        number = (
            content.report.number
            if isinstance(content, SummaryContent | PreviewContent)
            else _round_number(state)
        )
        kind = (
            self._view(content, state)[0] if not isinstance(content, SummaryContent) else "summary"
        )
        view = {
            "thread": thread,
            "kind": kind,
            "number": number,
            "full": effect.full,
            "hides": state.campaign.visibility == "hide-npcs",
            "body": body.strip(),
            "others": _others(content, state, to=effect.to),
        }
        subject = " ".join(self.env.get_template("private_subject.md.j2").render(**view).split())
        text = self.env.get_template("private.md.j2").render(**view).strip() + "\n"
        return subject, text

    def private_changed(
        self, effect: PrivateReply, *, state: EngineState, thread: str
    ) -> tuple[str, str]:
        """The short note that replaces a private copy on a forum that cannot edit one: the
        round was undone and closed again, and its summary in the thread is the new one."""
        content = effect.content
        number = content.report.number if isinstance(content, SummaryContent) else 0
        view = {"thread": thread, "number": number}
        subject = f"Round {number} changed · {thread}"
        text = self.env.get_template("private_changed.md.j2").render(**view).strip() + "\n"
        return subject, text

    def _seal(self, number: int) -> str | None:
        seed = self.seed_for(number)
        return seal(seed) if seed is not None else None

    def disclosure(self, state: EngineState) -> Disclosure:
        """What this renderer shows of the scene's NPCs (all of it when ``full``)."""
        return self._disclosure(state)

    def shown(self, state: EngineState) -> Shown:
        """The scene tables' form of ``disclosure``."""
        return self._shown(state)

    def _disclosure(self, state: EngineState) -> Disclosure:
        scene = state.round.base if state.round is not None else state.scene
        pcs = {c.name for c in state.campaign.characters if c.player is not None}
        npcs = frozenset(n for n in scene.names() if n not in pcs)
        shown = disclosure_for(state.campaign, ROSTER.identified(state), npcs)
        return replace(shown, hide=False) if self.full else shown

    def _hidden(self, state: EngineState) -> Hidden:
        """Whose numbers problem replies leave out: the NPCs' under hide-npcs (SPEC §4.5); a
        GM reads them in the full copy of the summary, or with ``!sheet NAME private``."""
        return self._disclosure(state).hidden(NPC_NUMBERS)

    def _view(self, content: Content, state: EngineState) -> tuple[str, dict[str, Any]]:
        match content:
            case ProblemsContent():  # rendered by ``render`` (``render_problem_reply``)
                return "problems", {}
            case SummaryContent() | UndoneContent():
                report = content.report
                disclosure = self._disclosure(state)
                view = summary_view(
                    report,
                    campaign=state.campaign,
                    disclosure=disclosure,
                    seed=self.seed_for(report.number),
                    next_seal=self._seal(report.number + 1),
                    roster=state.scene,
                )
                # a d20 scene shows its own table; a fight and an interval their sections
                own = VIEWS[SceneKind(report.scene)]
                view["round_word"] = own.round_word
                view["scene_table"] = self._scene_table(state) if own.summary_table else None
                view["refusals"] = self._refusals(report.rejected, state)
                view["done"], view["hide"] = report.done, disclosure.hide
                if isinstance(content, UndoneContent):
                    return "undone", {**view, "undone_by": content.undone_by}
                return "summary", view
            case PreviewContent():
                # the round as it would close now; no seed: the round is still open
                _, view = self._view(SummaryContent(report=content.report), content.after)
                return "preview", {**view, "seed": None, "next_seal": None, "preview": True}
            case CheatSheetContent():
                rnd = state.round
                deadline = (
                    rnd.deadline if rnd is not None and rnd.number == content.round_number else None
                )
                return "cheatsheet", {
                    **self._orientation(state, None),
                    "seal": self._seal(content.round_number),
                    "round_number": content.round_number,
                    "round_word": VIEWS[state.scene_kind].round_word,
                    "deadline": deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline else None,
                    "board": _board(content.board),
                }
            case HelpContent():
                return "help", {
                    **self._orientation(state, content.author),
                    "gm_commands": content.gm_commands,
                    "ex": examples_for(state, author=content.author),
                }
            case StatusContent():
                return "status", self._status(state, content)
            case SheetContent():
                return "sheet", self._sheets(state, content)
            case ReminderContent():
                return "reminder", {
                    "number": _round_number(state),
                    "players": content.players,
                    "characters": content.characters,
                    "missing": content.by_player(),
                    "deadline": content.deadline.strftime("%Y-%m-%d %H:%M UTC"),
                    "spec": content.spec,
                    "grace": content.grace,
                }
            case AllActedContent():
                return "all_acted", {"number": _round_number(state), "gms": content.gms}
            case MovedContent():
                return "moved", {
                    "campaign": state.campaign.name,
                    "to": content.to,
                    "unresolved": content.unresolved,
                    "round_word": VIEWS[state.scene_kind].round_word,
                }
            case FixedContent():
                return "fixed", {
                    "actions": content.actions,
                    "listed": content.listed,
                    "brackets": content.brackets,
                    "closed": content.closed,
                    "notes": self._notes(content.notes, state),
                }
            case ActedContent():
                return "acted", {}
            case AckContent():
                return "ack", {
                    "actions": content.actions,
                    "closed": content.closed,
                    "notes": self._notes(content.notes, state),
                }
            case DoneContent():
                return "done", {"done": content.done, "hide": self._disclosure(state).hide}
            case VoidedContent():
                return "voided", {"reason": content.reason}
            case DeletedContent():
                return "deleted", {}
            case AckModeContent():
                return "ack_mode", {
                    "author": content.author,
                    "on": content.on,
                    "table": content.table,
                }

    def _notes(self, notes: tuple[Note, ...], state: EngineState) -> list[str]:
        """Each ruleset's warning on an accepted tag, in its own template's words; none of a
        hidden NPC's (its numbers are the GM's, SPEC §4.5)."""
        hidden = self._hidden(state).npcs
        return [
            " ".join(self.env.get_template(n.template).render(**asdict(n)).split())
            for n in notes
            if n.actor not in hidden
        ]

    def _refusals(self, rejected: tuple[Rejection, ...], state: EngineState) -> list[str]:
        """Why each rejected tag of a summary was not accepted (its examples are the scene's,
        the same for all of them)."""
        if not rejected:
            return []
        examples = examples_for(state, author=None)
        hidden = self._hidden(state)
        return [self._refusal(r.problem, examples, hidden) for r in rejected]

    def _refusal(self, problem: Problem, examples: Examples, hidden: Hidden) -> str:
        """Why a tag was not accepted, in the words of its own reply, on one line (no quote of
        the tag, no example): what players read in the summary, never an internal code."""
        text = render_problem(problem, env=self.env, examples=examples, hidden=hidden)
        lines = [
            line
            for line in text.splitlines()
            if line.strip() and not line.startswith(">") and not line.startswith("For example")
        ]
        return " ".join(" ".join(lines).split())

    def _orientation(self, state: EngineState, author: str | None) -> dict[str, Any]:
        campaign: Campaign = state.campaign
        scene = state.round.base if state.round is not None else state.scene
        players: dict[str, list[str]] = {}
        for c in campaign.characters:
            if c.player is not None:
                players.setdefault(c.player, []).append(c.name)
        targets = scene.names()
        pcs = {c.name for c in campaign.characters if c.player is not None}
        own = players.get(author, []) if author is not None else []
        views = VIEWS[state.scene_kind]
        label, aimed = views.targets(state) or ("Targets", targets)
        return {
            "targets_label": label,
            "aimed": aimed,
            "example_task": views.example_task(state) or "Breach the gate",
            "campaign": campaign.name,
            "author": author or "",
            "characters": own,
            "players": [{"player": p, "characters": cs} for p, cs in players.items()],
            "targets": targets,
            "features": scene.feature_names(),
            "example_target": next(
                (n for n in targets if n not in pcs), targets[-1] if targets else "Goblin"
            ),
            "example_ally": next((n for n in targets if n in pcs and n not in own), "Aria"),
            "scene": state.scene_kind.value,
        }

    def _shown(self, state: EngineState) -> Shown:
        disclosure = self._disclosure(state)
        return Shown(
            hide=disclosure.hide, hidden=disclosure.npcs if disclosure.hide else frozenset()
        )

    def _scene_table(self, state: EngineState) -> Table | None:
        """The scene's own table (the roster's characters have templates of their own)."""
        return VIEWS[state.scene_kind].table(state, self._shown(state))

    def _status(self, state: EngineState, content: StatusContent) -> dict[str, Any]:
        scene = state.round.base if state.round is not None else state.scene
        return {
            "number": _round_number(state),
            "table": self._scene_table(state),
            "characters": ROSTER.rows(scene, self._disclosure(state)),
            "roster_status": ROSTER.status_section,
            "not_acted": content.not_acted,
            "deadline": content.deadline.strftime("%Y-%m-%d %H:%M UTC")
            if content.deadline
            else None,
        }

    def _sheets(self, state: EngineState, content: SheetContent) -> dict[str, Any]:
        scene = state.round.base if state.round is not None else state.scene
        disclosure = self._disclosure(state)
        views = VIEWS[state.scene_kind]
        shown = self._shown(state)
        sheets = []
        for name in content.names:
            sheet = state.campaign.character(name)
            own = views.sheet(state, name, shown)
            sheets.append(
                {
                    **ROSTER.sheet(scene, name, disclosure),
                    "player": sheet.player if sheet else None,
                    "scene_lines": own.lines if own is not None else None,
                    "standing": _standing(state, name),
                    "scene_sheet": own is not None,
                    "roster_sheet": ROSTER.sheet_section,
                }
            )
        return {"sheets": sheets, "scene": state.scene_kind.value}


def examples_for(state: EngineState, *, author: str | None) -> Examples:
    """The names a problem reply's examples use: the scene's own, never the author's
    character as the one acted on."""
    campaign = state.campaign
    scene = state.round.base if state.round is not None else state.scene
    names = list(scene.names())
    pcs = {c.name for c in campaign.characters if c.player is not None}
    low = author.casefold() if author else None
    own = [
        c.name for c in campaign.characters if c.player is not None and c.player.casefold() == low
    ]
    others = [n for n in names if n not in own]
    ranked = sorted(others, key=lambda n: _rank(scene, n, pcs=pcs, own=own))
    target = ranked[0] if ranked else (names[0] if names else "Goblin")
    other = next((n for n in ranked if n != target), target)
    ally = next((n for n in others if n in pcs), own[0] if own else target)
    task = next((t for v in ALL if (t := v.example_task(state))), "")
    features = scene.feature_names()
    talent = ROSTER.example_talent(campaign, own=own)  # the author's sheets first
    return Examples.named(
        scene=state.scene_kind.value,
        target=target,
        other=other,
        ally=ally,
        own=own[0] if own else ally,
        task=task,
        feature=features[0] if features else "",
        talent=talent or "TALENT",
        names=tuple(names),
        npcs=tuple(n for n in names if n not in pcs),
        mine=tuple(own),
    )


def _rank(scene: Roster, name: str, *, pcs: set[str], own: list[str]) -> tuple[bool, bool, bool]:
    """Where ``name`` stands among the characters an example acts on: the author's enemies
    still in the fight first (NPCs before player characters), then the rest."""
    try:
        enemy = not own or scene.side(name) != scene.side(own[0])
    except KeyError:
        enemy = True
    return (not enemy, scene.is_out(name), name in pcs)


def _read_at(content: Content, state: EngineState) -> EngineState:
    """The state a reply shows: a command's answer as its command read it, else ``state``."""
    if isinstance(content, StatusContent | SheetContent) and content.as_of is not None:
        return content.as_of
    return state


def _others(content: Content, state: EngineState, *, to: str) -> list[str]:
    """The characters of a ``!sheet`` that ``to`` does not play (a GM's NPCs, say), for the
    subject of the private message. A GM's NPCs are never "your sheet", even where the
    campaign file names the GM as their player."""
    if not isinstance(content, SheetContent):
        return []
    if state.campaign.is_gm(to):
        return list(content.names)
    played = {
        c.name
        for c in state.campaign.characters
        if c.player is not None and c.player.casefold() == to.casefold()
    }
    return [name for name in content.names if name not in played]


def _standing(state: EngineState, name: str) -> str | None:
    """What the rulesets not running the scene say of ``name`` (a foe a won skirmish left
    dead): the scene's own sheet lines say it in their scene."""
    own = VIEWS[state.scene_kind]
    return next((s for v in ALL if v is not own and (s := v.standing(state, name))), None)


def _board(board: TurnBoard | None) -> dict[str, Any] | None:
    """The turn board as the opening post shows it."""
    if board is None:
        return None
    return {
        "number": board.round_number,
        "deadline": board.deadline.strftime("%Y-%m-%d %H:%M UTC") if board.deadline else None,
        "grace_until": (
            board.grace_until.strftime("%Y-%m-%d %H:%M UTC") if board.grace_until else None
        ),
        "acted": board.acted,
        "to_act": board.to_act,
        "standing": board.standing,
    }


def _round_number(state: EngineState) -> int:
    return state.round.number if state.round is not None else 1


def split_reply(text: str, *, limit: int) -> list[str]:
    """A reply cut into numbered parts of at most ``limit`` characters each (the forum's
    ``ForumLimits.reply_chars``), at line ends."""
    if len(text) <= limit:
        return [text]
    room = limit - 40  # space for the "(part i/n)" header
    parts: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > room:  # a single overlong line is cut hard
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:room])
            line = line[room:]
        if len(current) + len(line) > room:
            parts.append(current)
            current = ""
        current += line
    if current:
        parts.append(current)
    total = len(parts)
    return [f"*(part {i}/{total})*\n\n{part}" for i, part in enumerate(parts, start=1)]
