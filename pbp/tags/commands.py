"""Typed commands: a line of a post that starts with ``!`` (SPEC §2.5).

Names in commands are kept as written (trimmed): a command may name a character that an
earlier line of the same post creates (``!npc`` then ``!group``), so the engine resolves them
when the command acts, with ``pbp.tags.names``. Each type says the word it is written with
(``word``) and when it acts (``timing``); the engine's table of commands (``engine.commands``)
says what each does.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum
from typing import Literal, get_args

from pbp.tags.model import SceneKind, Source
from pbp.values import frozen_value


class CommandTiming(StrEnum):
    """When a command acts (SPEC §2.5)."""

    AT_ONCE = "at_once"  # set-up and control: as soon as the post is read
    IN_ORDER = "in_order"  # corrections: at the post's place in the round's resolution
    AFTER_TAGS = "after_tags"  # !close, !undo, !encounter: after all the tags of the post
    REPLY = "reply"  # player help commands: answered when read


@frozen_value
class CloseCommand:
    """``!close``."""

    source: Source
    gm_only = True
    timing = CommandTiming.AFTER_TAGS
    word = "close"


@frozen_value
class PreviewCommand:
    """``!preview``: what the round would resolve to if it closed now, for the GM only."""

    source: Source
    gm_only = True
    timing = CommandTiming.AFTER_TAGS
    word = "preview"


@frozen_value
class UndoCommand:
    """``!undo``."""

    source: Source
    gm_only = True
    timing = CommandTiming.AFTER_TAGS
    word = "undo"


@frozen_value
class DeadlineCommand:
    """``!deadline 48h`` (``after``), ``!deadline 2026-12-02 18:00 UTC`` (``at``), ``off``;
    ``… grace 12h``: the players still to act at the deadline are nudged and the round waits
    that much longer for them (``grace``)."""

    source: Source
    after: timedelta | None = None
    at: datetime | None = None  # aware, UTC
    grace: timedelta | None = None
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "deadline"


@frozen_value
class EncounterCommand:
    """``!encounter KIND [options]``: start a scene.

    ``interval`` (abstract: ``interval 1 day``), ``ambush`` (skirmish: the side that caught
    the other unaware), ``pressure`` (d20: ``pressure on`` forbids taking 10).
    """

    source: Source
    kind: SceneKind
    interval: timedelta | None = None
    ambush: str | None = None
    pressure: bool = False
    gm_only = True
    timing = CommandTiming.AFTER_TAGS
    word = "encounter"


@frozen_value
class EncounterEndCommand:
    """``!encounter end [medic A, B] [rally C]``: close, end the scene, short rest."""

    source: Source
    medic: tuple[str, ...] = ()
    rally: tuple[str, ...] = ()
    gm_only = True
    timing = CommandTiming.AFTER_TAGS
    word = "encounter"


@frozen_value
class NpcCommand:
    """``!npc NAME body 3 mind 2 [side foes] [group OTHER] [SCORE N …]``.

    ``scores`` holds the other sheet numbers given (constitution, wisdom, intuition, hp, wp,
    stamina, dice_pool, bonus_pool) by their campaign-file key.
    """

    source: Source
    name: str
    body: int
    mind: int
    side: str | None = None
    group: str | None = None
    scores: tuple[tuple[str, int], ...] = ()
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "npc"


@frozen_value
class GroupCommand:
    """``!group A, B, C``: put characters and features into one group."""

    source: Source
    names: tuple[str, ...]
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "group"


@frozen_value
class FeatureCommand:
    """``!feature NAME [tn 4] [constraint 5]``."""

    source: Source
    name: str
    tn: int | None = None
    constraint: int | None = None
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "feature"


@frozen_value
class TaskCommand:
    """``!task NAME dc 60 [secret]``."""

    source: Source
    name: str
    dc: int
    secret: bool = False
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "task"


@frozen_value
class OpposeCommand:
    """``!oppose TASK 4d6``: GM opposition for a task this interval."""

    source: Source
    task: str
    dice: int
    sides: int = 6
    gm_only = True
    timing = CommandTiming.IN_ORDER
    word = "oppose"


@frozen_value
class DifficultyCommand:
    """``!difficulty POST 12``: the GM calls for a roll on that post's course of action, against
    a Narrator-set difficulty (RULES M9); ``!difficulty POST NAME 12``: on that character's
    course only (a GM's post of NPC turns holds several)."""

    source: Source
    post: str
    dc: int
    character: str | None = None
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "difficulty"


@frozen_value
class BonusCommand:
    """``!bonus NAME +2``: add to (or with a negative number take from) the bonus pool."""

    source: Source
    name: str
    amount: int
    gm_only = True
    timing = CommandTiming.IN_ORDER
    word = "bonus"


# Distat's Body and Mind, or a Markhorspire fight's HP and WP
CorrectedStat = Literal["body", "mind", "hp", "wp"]


@frozen_value
class DamageCommand:
    """``!damage NAME body 1`` (``hp`` or ``wp`` in a skirmish or battle)."""

    source: Source
    name: str
    stat: CorrectedStat
    amount: int
    gm_only = True
    timing = CommandTiming.IN_ORDER
    word = "damage"


@frozen_value
class HealCommand:
    """``!heal NAME mind 1`` (``hp`` or ``wp`` in a skirmish or battle)."""

    source: Source
    name: str
    stat: CorrectedStat
    amount: int
    gm_only = True
    timing = CommandTiming.IN_ORDER
    word = "heal"


@frozen_value
class RestCommand:
    """``!rest night``: a night's rest for every character of the campaign."""

    source: Source
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "rest"


@frozen_value
class RecoverCommand:
    """``!recover Aria body 2``: a player spends bonus points after an encounter's end, 2 a
    point of damage (RULES D16 step 3)."""

    source: Source
    name: str
    stat: Literal["body", "mind"]
    amount: int
    gm_only = False
    timing = CommandTiming.AT_ONCE
    word = "recover"


@frozen_value
class VoidCommand:
    """``!void POST``: strike a post of the open round (an id or a permalink)."""

    source: Source
    post: str
    reason: str | None = None  # the words after the post: told to its author
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "void"


@frozen_value
class StandingCommand:
    """``!standing [physical: attack Goblin]``: an order that acts for the character in every
    round it has not acted in by the close; ``!standing off`` cancels it. ``name``: the
    character named before the tag (``!standing Goblin [attack: Aria]``, a GM's, or a player's
    for one of their own); ``tag``: the bracket as written (None: off)."""

    source: Source
    name: str | None = None
    tag: str | None = None
    gm_only = False
    timing = CommandTiming.AT_ONCE
    word = "standing"


@frozen_value
class CampaignCommand:
    """``!campaign NAME``: bind a new thread to a campaign."""

    source: Source
    name: str
    gm_only = True
    timing = CommandTiming.AT_ONCE
    word = "campaign"


@frozen_value
class HelpCommand:
    """``!help``."""

    source: Source
    gm_only = False
    timing = CommandTiming.REPLY
    word = "help"


@frozen_value
class StatusCommand:
    """``!status``."""

    source: Source
    gm_only = False
    timing = CommandTiming.REPLY
    word = "status"


@frozen_value
class AckCommand:
    """``!ack on`` / ``!ack off``: confirm (or stop confirming) this player's accepted tags,
    whatever the table's ack setting."""

    source: Source
    on: bool
    gm_only = False
    timing = CommandTiming.REPLY
    word = "ack"


@frozen_value
class SheetCommand:
    """``!sheet [NAME] [private]``: ``private`` answers by private message to the author."""

    source: Source
    name: str | None = None
    private: bool = False
    gm_only = False
    timing = CommandTiming.REPLY
    word = "sheet"


Command = (
    CloseCommand
    | UndoCommand
    | DeadlineCommand
    | EncounterCommand
    | EncounterEndCommand
    | NpcCommand
    | GroupCommand
    | FeatureCommand
    | TaskCommand
    | OpposeCommand
    | BonusCommand
    | DamageCommand
    | HealCommand
    | RestCommand
    | RecoverCommand
    | VoidCommand
    | CampaignCommand
    | HelpCommand
    | StatusCommand
    | SheetCommand
    | DifficultyCommand
    | PreviewCommand
    | AckCommand
    | StandingCommand
)
COMMAND_TYPES: tuple[type[Command], ...] = get_args(Command)
# every command word, in the order an unknown command's reply lists them
COMMAND_WORDS: tuple[str, ...] = tuple(dict.fromkeys(kind.word for kind in COMMAND_TYPES))
