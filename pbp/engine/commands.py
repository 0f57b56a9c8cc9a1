"""The table of commands, and a post's commands read through it: set-up at once, help replies
when read, and the commands that act after the tags (SPEC §2.5).

Each row (``engine.command_table``) names a typed command, its handler, its acknowledgement
record and when it acts; the rulesets contribute the rows of the commands they own. Adding a
command: its type (``pbp.tags.commands``) and reader (``pbp.tags.command_parser.READERS``), its
handler (``engine.command_handlers``) and a row below (or in its ruleset), and, if the table is
told what it did, a record in ``engine.done`` with its template (``templates/done/``).
"""

from __future__ import annotations

from pbp.campaign.model import Campaign
from pbp.engine import acknowledge, registry
from pbp.engine import command_handlers as do
from pbp.engine.command_table import Acting, CommandRow, by_type, row, unchanged
from pbp.engine.done import (
    Done,
)
from pbp.engine.effects import Effect, HelpContent, Reply
from pbp.engine.lazy_dice import DiceForRound
from pbp.engine.post_contents import ProblemsContent
from pbp.engine.reading import Parse, is_command_problem
from pbp.engine.setup import located
from pbp.engine.standing import standing
from pbp.engine.state import EngineState, PostRecord
from pbp.errors import Problem
from pbp.tags import ParsedPost
from pbp.tags.command_parser import parse_command_line
from pbp.tags.commands import (
    AckCommand,
    BonusCommand,
    CampaignCommand,
    CloseCommand,
    Command,
    CommandTiming,
    DamageCommand,
    DeadlineCommand,
    EncounterCommand,
    EncounterEndCommand,
    FeatureCommand,
    GroupCommand,
    HealCommand,
    HelpCommand,
    NpcCommand,
    PreviewCommand,
    RestCommand,
    SheetCommand,
    StandingCommand,
    StatusCommand,
    UndoCommand,
    VoidCommand,
)
from pbp.tags.model import Source
from pbp.values import replace


def help_reply(state: EngineState, command: HelpCommand, acting: Acting) -> EngineState:
    """``!help``: the tag language for its author; a GM's lists the GM commands of the table
    too (``COMMANDS``, below)."""
    post = acting.post
    words = tuple(dict.fromkeys(r.word for r in COMMANDS if r.command.gm_only))
    content = HelpContent(author=post.author, gm_commands=words if post.gm else ())
    key = f"{post.post_id}-{command.source.line}"
    acting.effects.append(Reply(key=key, to=post.post_id, content=content))
    return state


COMMANDS: tuple[CommandRow, ...] = (
    # after the tags of the post
    row(CloseCommand, do.close),
    row(UndoCommand, do.undo),
    row(PreviewCommand, do.preview),
    row(EncounterCommand, do.encounter, acknowledge=acknowledge.encounter_begun),
    row(EncounterEndCommand, do.end_encounter, acknowledge=acknowledge.encounter_ended),
    # set-up and control, at once
    row(DeadlineCommand, do.deadline, acknowledge=acknowledge.deadline_set),
    row(VoidCommand, do.void, acknowledge=acknowledge.post_voided),
    row(NpcCommand, do.roster_setup, acknowledge=acknowledge.npc_joined),
    row(GroupCommand, do.roster_setup, acknowledge=acknowledge.grouped),
    row(FeatureCommand, do.roster_setup, acknowledge=acknowledge.feature_added),
    row(RestCommand, do.night_rest),
    row(CampaignCommand, unchanged, acknowledge=acknowledge.campaign_bound),  # the shell binds
    # corrections: at the post's place in the round's resolution (engine.rounds)
    row(BonusCommand, unchanged),
    row(DamageCommand, unchanged),
    row(HealCommand, unchanged),
    # answers, when read
    row(HelpCommand, help_reply),
    row(StatusCommand, do.status_reply),
    row(SheetCommand, do.sheet_reply),
    row(AckCommand, do.ack_mode, waits=False),  # the player's setting, even below `!close`
    row(StandingCommand, standing),  # a standing order, checked when read (engine.standing)
    # the rulesets' own: `!task`, `!oppose`, `!difficulty` …
    *registry.command_rows(),
)
_ROWS = by_type(COMMANDS)


def command_row(command: Command) -> CommandRow:
    """The row of the table for ``command``."""
    return _ROWS[type(command)]


def read_commands(
    state: EngineState,
    post: PostRecord,
    parsed: ParsedPost,
    effects: list[Effect],
    acks: list[Done] | None = None,
    *,
    dice: DiceForRound,
    parse: Parse,
) -> tuple[EngineState, PostRecord, list[Command]]:
    """Act on the commands of a newly read post; return the ones that act after its tags.
    What each GM command did goes to ``acks`` (for its acknowledgement)."""
    problems = [p for p in parsed.problems if is_command_problem(p)]
    closing: list[Command] = []
    acting = Acting(post=post, effects=effects, dice=dice, parse=parse)
    for command in parsed.commands:
        entry = command_row(command)
        if any(isinstance(c, EncounterCommand) for c in closing):
            refused = entry.before_scene(command) if entry.before_scene is not None else None
            if refused is not None:  # `!oppose` would act in the interval now closing
                problems.append(refused)
                continue
            if entry.timing is not CommandTiming.REPLY:
                # set-up (and `!oppose`) written below `!encounter` belongs to the new scene:
                # it waits for it
                closing.append(command)
                continue
        match entry.timing:
            case CommandTiming.AFTER_TAGS:
                closing.append(command)
            case CommandTiming.REPLY if closing and entry.waits:
                closing.append(command)  # SPEC §2.5 line order: it answers after the close
            case _:
                done = entry.handler(state, command, acting)
                if isinstance(done, Problem):
                    problems.append(done)
                    continue
                state = done
                if entry.timing is CommandTiming.AT_ONCE:
                    _record(acks, state, entry, command, acting)
    problems.sort(key=lambda p: (p.line, p.column))
    if parsed.commands or problems or post.commands or post.command_problems:
        post = replace(post, commands=parsed.commands, command_problems=tuple(problems))
    return state, post, closing


def _record(
    acks: list[Done] | None,
    state: EngineState,
    entry: CommandRow,
    command: Command,
    acting: Acting,
) -> None:
    """Keep what a GM command did, for the post's acknowledgement: its own record, then what
    else it did (``Acting.also``)."""
    post, also = acting.post, tuple(acting.also)
    acting.also.clear()
    if acks is None or not (post.gm or not command.gm_only):  # a player's own (`!recover`)
        return
    if entry.acknowledge is not None:
        item = entry.acknowledge(state, command, post)
        if item is not None:
            acks.append(item)
    acks.extend(also)


def may_close(body: str, *, author: str, campaign: Campaign) -> bool:
    """Whether a post may close the round when it is read: a GM's ``!close``, ``!undo`` or
    ``!encounter`` line (the commands that act after the tags), or any GM post when the
    campaign closes on every GM post (RULES D8). The shell re-reads the open round first."""
    gm = campaign.is_gm(author)
    if gm and campaign.options.close_on_any_gm_post:  # RULES D8
        return True
    for number, line in enumerate(body.splitlines(), start=1):
        if not line.lstrip().startswith("!"):
            continue
        source = Source(index=0, line=number, column=1, text=line.strip())
        command = parse_command_line(line.strip(), source=source, gm=gm)
        if command is None or isinstance(command, Problem):
            continue
        if command.timing is CommandTiming.AFTER_TAGS:
            return True
    return False


def after_tags(
    state: EngineState,
    post: PostRecord,
    closing: list[Command],
    *,
    effects: list[Effect],
    dice: DiceForRound,
    parse: Parse,
    acks: list[Done] | None = None,
    refused: list[Problem] | None = None,
) -> EngineState:
    """``!close``, ``!undo`` and ``!encounter …`` act after all the tags of their post (and
    what was written below them, in its turn). The ones refused go to ``refused`` when given
    (the post's own reply says them), else in a reply of their own."""
    if not closing and post.gm and state.campaign.options.close_on_any_gm_post:
        closing = [CloseCommand(source=Source(index=0, line=1, column=1, text=""))]  # RULES D8
    problems: list[Problem] = []
    acting = Acting(post=post, effects=effects, dice=dice, parse=parse)
    for command in closing:
        assert state.round is not None
        entry = command_row(command)
        waited = entry.timing is CommandTiming.IN_ORDER  # below `!encounter`: see read_commands
        done = entry.handler(state, command, replace(acting, waited=True) if waited else acting)
        if isinstance(done, EngineState):
            state = done
            _record(acks, state, entry, command, acting)
        else:
            problems.append(located(done, command))
    if problems and state.ack == "none":  # SPEC §3: listed in the round summary instead
        return _note_problems(state, post.post_id, tuple(problems))
    if problems and refused is not None:
        refused += problems
    elif problems:
        effects.append(
            Reply(
                key=f"problems-{post.post_id}-closing",
                to=post.post_id,
                content=ProblemsContent(post_id=post.post_id, problems=tuple(problems)),
            )
        )
    return state


def _note_problems(state: EngineState, post_id: str, problems: tuple[Problem, ...]) -> EngineState:
    """Keep a post's refused commands with it, for the summary's list of what was refused."""
    rnd = state.round
    if rnd is None or rnd.post(post_id) is None:
        return state
    posts = tuple(
        replace(p, command_problems=(*p.command_problems, *problems)) if p.post_id == post_id else p
        for p in rnd.posts
    )
    return replace(state, round=replace(rnd, posts=posts))
