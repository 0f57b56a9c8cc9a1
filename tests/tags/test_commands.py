"""Every command and argument form of SPEC §2.5, read from one line into its typed command."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from pbp.tags.command_parser import PLAYER_COMMANDS, parse_command_line
from pbp.tags.command_problems import NotGm
from pbp.tags.commands import (
    COMMAND_WORDS,
    AckCommand,
    BonusCommand,
    CampaignCommand,
    CloseCommand,
    DamageCommand,
    DeadlineCommand,
    DifficultyCommand,
    EncounterCommand,
    EncounterEndCommand,
    FeatureCommand,
    GroupCommand,
    HealCommand,
    HelpCommand,
    NpcCommand,
    OpposeCommand,
    PreviewCommand,
    RecoverCommand,
    RestCommand,
    SheetCommand,
    StandingCommand,
    StatusCommand,
    TaskCommand,
    UndoCommand,
    VoidCommand,
)
from pbp.tags.model import SceneKind, Source


def source_of(line: str) -> Source:
    return Source(index=2, line=7, column=1, text=line)


def read(line: str, *, gm: bool = True) -> object:
    return parse_command_line(line, source=source_of(line), gm=gm)


GM_COMMANDS: list[tuple[str, type[Any], dict[str, Any]]] = [
    ("!close", CloseCommand, {}),
    ("!CLOSE", CloseCommand, {}),
    ("!Close.", CloseCommand, {}),
    ("!close!", CloseCommand, {}),
    ("!undo", UndoCommand, {}),
    # deadlines: durations in every form, absolute times, off
    ("!deadline 48h", DeadlineCommand, {"after": timedelta(hours=48)}),
    ("!deadline 90m", DeadlineCommand, {"after": timedelta(minutes=90)}),
    ("!deadline 2d", DeadlineCommand, {"after": timedelta(days=2)}),
    ("!deadline 1 day", DeadlineCommand, {"after": timedelta(days=1)}),
    ("!deadline 2 hours", DeadlineCommand, {"after": timedelta(hours=2)}),
    ("!deadline 30 minutes", DeadlineCommand, {"after": timedelta(minutes=30)}),
    ("!deadline 1h30m", DeadlineCommand, {"after": timedelta(minutes=90)}),
    ('!deadline "48h"', DeadlineCommand, {"after": timedelta(hours=48)}),
    (
        "!deadline 2026-12-02 18:00 UTC",
        DeadlineCommand,
        {"at": datetime(2026, 12, 2, 18, 0, tzinfo=UTC)},
    ),
    ("!deadline 2026-12-02T18:00Z", DeadlineCommand, {"at": datetime(2026, 12, 2, 18, tzinfo=UTC)}),
    ("!deadline 2026-12-02 18:00", DeadlineCommand, {"at": datetime(2026, 12, 2, 18, tzinfo=UTC)}),
    (
        "!deadline 2026-12-02 18:00 +01:00",
        DeadlineCommand,
        {"at": datetime(2026, 12, 2, 17, tzinfo=UTC)},
    ),
    ("!deadline off", DeadlineCommand, {}),
    ("!Deadline OFF", DeadlineCommand, {}),
    # encounters
    ("!encounter distat", EncounterCommand, {"kind": SceneKind.DISTAT}),
    ("!encounter abstract", EncounterCommand, {"kind": SceneKind.ABSTRACT}),
    (
        "!encounter abstract interval 1 day",
        EncounterCommand,
        {"kind": SceneKind.ABSTRACT, "interval": timedelta(days=1)},
    ),
    (
        "!encounter abstract interval 8h",
        EncounterCommand,
        {"kind": SceneKind.ABSTRACT, "interval": timedelta(hours=8)},
    ),
    (
        "!Encounter ABSTRACT Interval 1 hour",
        EncounterCommand,
        {"kind": SceneKind.ABSTRACT, "interval": timedelta(hours=1)},
    ),
    ("!encounter d20", EncounterCommand, {"kind": SceneKind.D20}),
    ("!encounter d20 pressure on", EncounterCommand, {"kind": SceneKind.D20, "pressure": True}),
    ("!encounter d20 pressure off", EncounterCommand, {"kind": SceneKind.D20}),
    ("!encounter d20 pressure", EncounterCommand, {"kind": SceneKind.D20, "pressure": True}),
    ("!encounter skirmish", EncounterCommand, {"kind": SceneKind.SKIRMISH}),
    (
        "!encounter skirmish ambush party",
        EncounterCommand,
        {"kind": SceneKind.SKIRMISH, "ambush": "party"},
    ),
    (
        "!encounter skirmish ambush Black Hand",
        EncounterCommand,
        {"kind": SceneKind.SKIRMISH, "ambush": "Black Hand"},
    ),
    ("!encounter battle", EncounterCommand, {"kind": SceneKind.BATTLE}),
    ("!encounter end", EncounterEndCommand, {}),
    (
        "!encounter end medic Aria, Dax rally Bram",
        EncounterEndCommand,
        {"medic": ("Aria", "Dax"), "rally": ("Bram",)},
    ),
    (
        "!encounter end rally Bram medic Aria, Dax",
        EncounterEndCommand,
        {"medic": ("Aria", "Dax"), "rally": ("Bram",)},
    ),
    (
        "!encounter end medic Aria and Dax",
        EncounterEndCommand,
        {"medic": ("Aria", "Dax")},
    ),
    ("!encounter end rally Aria", EncounterEndCommand, {"rally": ("Aria",)}),
    (
        '!encounter end medic Goblin Archer, "Imp A"',
        EncounterEndCommand,
        {"medic": ("Goblin Archer", "Imp A")},
    ),
    # NPCs: the name is every word before the first keyword
    ("!npc Imp A body 2 mind 1", NpcCommand, {"name": "Imp A", "body": 2, "mind": 1}),
    ('!npc "Imp A" body 2 mind 1', NpcCommand, {"name": "Imp A", "body": 2, "mind": 1}),
    ("!NPC Imp A BODY 2 Mind 1", NpcCommand, {"name": "Imp A", "body": 2, "mind": 1}),
    ("!npc Imp A mind 1 body 2", NpcCommand, {"name": "Imp A", "body": 2, "mind": 1}),
    ("!npc Ogre", NpcCommand, {"name": "Ogre", "body": 0, "mind": 0}),
    ("!npc Ogre body 5", NpcCommand, {"name": "Ogre", "body": 5, "mind": 0}),
    (
        '!npc "Side Winder" body 3 mind 2',
        NpcCommand,
        {"name": "Side Winder", "body": 3, "mind": 2},
    ),
    (
        "!npc Imp C body 1 mind 1 side foes group Imp A",
        NpcCommand,
        {"name": "Imp C", "body": 1, "mind": 1, "side": "foes", "group": "Imp A"},
    ),
    (
        "!npc Troll body 4 mind 1 constitution 3 wisdom 2 intuition 1 hp 20 wp 18 stamina 2"
        " dice_pool 1 bonus_pool 0",
        NpcCommand,
        {
            "name": "Troll",
            "body": 4,
            "mind": 1,
            "scores": (
                ("constitution", 3),
                ("wisdom", 2),
                ("intuition", 1),
                ("hp", 20),
                ("wp", 18),
                ("stamina", 2),
                ("dice_pool", 1),
                ("bonus_pool", 0),
            ),
        },
    ),
    (
        "!npc Troll wp 4 dice pool 2 constitution 1",
        NpcCommand,
        {
            "name": "Troll",
            "body": 0,
            "mind": 0,
            "scores": (("constitution", 1), ("wp", 4), ("dice_pool", 2)),
        },
    ),
    (
        "!npc Troll bonus-pool 3",
        NpcCommand,
        {"name": "Troll", "body": 0, "mind": 0, "scores": (("bonus_pool", 3),)},
    ),
    ("!npc Imp A, body 2, mind 1", NpcCommand, {"name": "Imp A", "body": 2, "mind": 1}),
    (
        "!npc Troll Dice-Pool 2",
        NpcCommand,
        {"name": "Troll", "body": 0, "mind": 0, "scores": (("dice_pool", 2),)},
    ),
    (
        "!encounter abstract, interval 1 day",
        EncounterCommand,
        {"kind": SceneKind.ABSTRACT, "interval": timedelta(days=1)},
    ),
    # groups, features, tasks
    ("!group A, B, C", GroupCommand, {"names": ("A", "B", "C")}),
    ("!group Aria, Imp A, Imp B", GroupCommand, {"names": ("Aria", "Imp A", "Imp B")}),
    ("!group Aria and Goblin", GroupCommand, {"names": ("Aria", "Goblin")}),
    ("!group Aria, Bram and Goblin", GroupCommand, {"names": ("Aria", "Bram", "Goblin")}),
    ('!group "Aria", "Door"', GroupCommand, {"names": ("Aria", "Door")}),
    ("!group Aria,Door", GroupCommand, {"names": ("Aria", "Door")}),
    ("!feature Door", FeatureCommand, {"name": "Door"}),
    ("!feature Door tn 4", FeatureCommand, {"name": "Door", "tn": 4}),
    ("!feature Old Wall constraint 5", FeatureCommand, {"name": "Old Wall", "constraint": 5}),
    ("!feature Door TN 4 constraint 5", FeatureCommand, {"name": "Door", "tn": 4, "constraint": 5}),
    ("!task Breach the gate dc 40", TaskCommand, {"name": "Breach the gate", "dc": 40}),
    ("!task Gate dc 60 secret", TaskCommand, {"name": "Gate", "dc": 60, "secret": True}),
    ("!task Gate secret dc 60", TaskCommand, {"name": "Gate", "dc": 60, "secret": True}),
    ('!task "Keep dc" DC 60', TaskCommand, {"name": "Keep dc", "dc": 60}),
    # corrections, with negative numbers
    ("!oppose Breach the gate 4d6", OpposeCommand, {"task": "Breach the gate", "dice": 4}),
    ("!difficulty p7 12", DifficultyCommand, {"post": "p7", "dc": 12}),
    ("!oppose Gate 2D8", OpposeCommand, {"task": "Gate", "dice": 2, "sides": 8}),
    ("!oppose Gate d6", OpposeCommand, {"task": "Gate", "dice": 1}),
    ("!bonus Aria +2", BonusCommand, {"name": "Aria", "amount": 2}),
    ("!bonus Aria 2", BonusCommand, {"name": "Aria", "amount": 2}),
    ("!bonus Aria -2", BonusCommand, {"name": "Aria", "amount": -2}),
    ("!bonus Aria −2", BonusCommand, {"name": "Aria", "amount": -2}),  # the minus sign
    ("!bonus Aria + 2", BonusCommand, {"name": "Aria", "amount": 2}),
    ("!bonus Goblin Archer -1", BonusCommand, {"name": "Goblin Archer", "amount": -1}),
    ("!damage Aria body 1", DamageCommand, {"name": "Aria", "stat": "body", "amount": 1}),
    ("!damage Aria body -1", DamageCommand, {"name": "Aria", "stat": "body", "amount": -1}),
    ("!damage Aria mind 4", DamageCommand, {"name": "Aria", "stat": "mind", "amount": 4}),
    ("!damage Goblin hp 2", DamageCommand, {"name": "Goblin", "stat": "hp", "amount": 2}),
    ("!heal Aria WP 1", HealCommand, {"name": "Aria", "stat": "wp", "amount": 1}),
    ("!damage Aria 2 body", DamageCommand, {"name": "Aria", "stat": "body", "amount": 2}),
    ("!damage Imp A Body 1", DamageCommand, {"name": "Imp A", "stat": "body", "amount": 1}),
    ("!heal Aria mind 1", HealCommand, {"name": "Aria", "stat": "mind", "amount": 1}),
    ("!heal Aria body - 1", HealCommand, {"name": "Aria", "stat": "body", "amount": -1}),
    ("!rest night", RestCommand, {}),
    ("!rest Night.", RestCommand, {}),
    # recover (a player's, RULES D16 step 3): a name, body or mind, the damage
    ("!recover Aria body 2", RecoverCommand, {"name": "Aria", "stat": "body", "amount": 2}),
    ("!recover Aria 1 Mind", RecoverCommand, {"name": "Aria", "stat": "mind", "amount": 1}),
    # void: an id or a permalink
    ("!void def456", VoidCommand, {"post": "def456"}),
    ("!void t1_def456", VoidCommand, {"post": "t1_def456", "reason": None}),
    (
        "!void def456 posted in the wrong thread",
        VoidCommand,
        {"post": "def456", "reason": "posted in the wrong thread"},
    ),
    (
        "!void https://www.reddit.com/r/x/comments/abc/title/def456/",
        VoidCommand,
        {"post": "def456"},
    ),
    (
        "!void https://www.reddit.com/r/x/comments/abc/comment/def456/?context=3",
        VoidCommand,
        {"post": "def456"},
    ),
    ("!void https://old.reddit.com/r/x/comments/abc/title/", VoidCommand, {"post": "abc"}),
    ("!void https://redd.it/abc", VoidCommand, {"post": "abc"}),
    ("!void www.reddit.com/r/x/comments/abc/title/def456", VoidCommand, {"post": "def456"}),
    ("!campaign The Sunken Keep", CampaignCommand, {"name": "The Sunken Keep"}),
    ('!campaign "The Sunken Keep"', CampaignCommand, {"name": "The Sunken Keep"}),
    # player commands work for the GM too
    ("!help", HelpCommand, {}),
    ("!status", StatusCommand, {}),
    ("!sheet", SheetCommand, {}),
    ("!sheet Aria", SheetCommand, {"name": "Aria"}),
    ("!sheet Imp A", SheetCommand, {"name": "Imp A"}),
    ("!sheet private", SheetCommand, {"private": True}),
    ("!sheet Imp A private", SheetCommand, {"name": "Imp A", "private": True}),
    ("!sheet private Aria", SheetCommand, {"name": "Aria", "private": True}),
    ("!preview", PreviewCommand, {}),
    ("!ack on", AckCommand, {"on": True}),
    ("!ack off.", AckCommand, {"on": False}),
    ('!sheet "Imp A"', SheetCommand, {"name": "Imp A"}),
    ("!standing [physical: attack Goblin]", StandingCommand, {"tag": "[physical: attack Goblin]"}),
    (
        "!standing Imp A [attack: Aria | adv]",
        StandingCommand,
        {"name": "Imp A", "tag": "[attack: Aria | adv]"},
    ),
    ("!standing off", StandingCommand, {"name": None, "tag": None}),
    ("!standing Aria off", StandingCommand, {"name": "Aria", "tag": None}),
    (
        "!deadline 48h grace 12h",
        DeadlineCommand,
        {"after": timedelta(hours=48), "grace": timedelta(hours=12)},
    ),
]


@pytest.mark.parametrize(("line", "kind", "fields"), GM_COMMANDS)
def test_a_gm_command_line_reads_into_its_typed_command(
    line: str, kind: type[Any], fields: dict[str, Any]
) -> None:
    assert read(line) == kind(source=source_of(line), **fields)


@pytest.mark.parametrize(
    ("quoted", "plain"),
    [
        ('!npc "Imp A" body 2 mind 1', "!npc Imp A body 2 mind 1"),
        ("!npc 'Imp A' body 2 mind 1", "!npc Imp A body 2 mind 1"),
        ('!group "Aria", "Imp A"', "!group Aria, Imp A"),
        ('!bonus "Goblin Archer" +2', "!bonus Goblin Archer +2"),
        ('!damage "Aria" body 1', "!damage Aria body 1"),
        ('!task "Breach the gate" dc 40', "!task Breach the gate dc 40"),
        ('!encounter end medic "Aria", "Dax"', "!encounter end medic Aria, Dax"),
    ],
)
def test_quotes_are_allowed_and_never_needed(quoted: str, plain: str) -> None:
    from_plain = parse_command_line(plain, source=source_of(quoted), gm=True)
    assert from_plain is not None
    assert read(quoted) == from_plain


def test_an_apostrophe_inside_a_name_is_kept() -> None:
    line = "!npc Ma'at body 2"
    assert read(line) == NpcCommand(source=source_of(line), name="Ma'at", body=2, mind=0)


def test_a_stray_quote_mark_does_not_swallow_the_line() -> None:
    line = '!npc "Imp body 2 mind 1'
    assert read(line) == NpcCommand(source=source_of(line), name="Imp", body=2, mind=1)


@pytest.mark.parametrize(
    ("line", "kind", "fields"),
    [
        ("!help", HelpCommand, {}),
        ("!HELP please", HelpCommand, {}),
        ("!status", StatusCommand, {}),
        ("!sheet", SheetCommand, {}),
        ("!sheet Aria", SheetCommand, {"name": "Aria"}),
        ("!sheet private", SheetCommand, {"private": True}),
        ("!ack on", AckCommand, {"on": True}),
    ],
)
def test_player_commands_work_for_everyone(
    line: str, kind: type[Any], fields: dict[str, Any]
) -> None:
    assert read(line, gm=False) == kind(source=source_of(line), **fields)


@pytest.mark.parametrize(("line", "kind", "fields"), GM_COMMANDS)
def test_a_player_may_use_exactly_the_commands_that_are_not_gm_only(
    line: str, kind: type[Any], fields: dict[str, Any]
) -> None:
    as_player = read(line, gm=False)
    if kind.gm_only:
        assert as_player == NotGm(
            tag=line, line=7, column=1, command=line[1:].split()[0].rstrip(".!").lower()
        )
    else:
        assert as_player == kind(source=source_of(line), **fields)


def test_every_command_word_has_a_reader_and_an_example_in_the_table() -> None:
    words = {line[1:].split()[0].rstrip(".!").lower() for line, _, _ in GM_COMMANDS}
    assert words == set(COMMAND_WORDS)
    assert {word for word in COMMAND_WORDS if word in PLAYER_COMMANDS} == {
        "help",
        "status",
        "sheet",
        "ack",
        "recover",
        "standing",
    }
