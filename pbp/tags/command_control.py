"""Readers of the control, correction and player commands (SPEC §2.5).

Each reader takes the command's ``Args`` and returns its typed command, or raises
``ArgumentError`` with what it found and what it expected.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Literal

from pbp.tags.command_args import ArgumentError, Token, glue_signs, join, number, post_id
from pbp.tags.commands import (
    AckCommand,
    BonusCommand,
    CampaignCommand,
    Command,
    CorrectedStat,
    DamageCommand,
    DeadlineCommand,
    DifficultyCommand,
    HealCommand,
    OpposeCommand,
    RecoverCommand,
    RestCommand,
    SheetCommand,
    StandingCommand,
    VoidCommand,
)
from pbp.tags.model import Source
from pbp.tags.times import parse_duration, parse_instant
from pbp.values import frozen_value

CORRECTION_LIMIT = 999  # far beyond any sheet; it keeps absurd numbers out of the engine
_DICE = re.compile(r"([0-9]{1,3})?d([0-9]{1,4})", re.IGNORECASE)
MAX_OPPOSE_DICE = 100
MAX_OPPOSE_SIDES = 1000


@frozen_value
class Args:
    """The arguments of one command line: the command word (lower case) and the words after it."""

    word: str
    tokens: tuple[Token, ...]
    source: Source


Reader = Callable[[Args], Command]


def no_arguments(make: Callable[[Source], Command]) -> Reader:
    """A reader for a command without arguments; trailing punctuation is allowed."""

    def read(args: Args) -> Command:
        extra = [token for token in args.tokens if not token.is_punctuation]
        if extra:
            raise ArgumentError(found=join(extra), expected=f"nothing after !{args.word}")
        return make(args.source)

    return read


def read_deadline(args: Args) -> Command:
    """``!deadline 48h``, ``!deadline 2026-12-02 18:00 UTC``, ``!deadline off``, and either
    time with ``grace 12h`` after it."""
    expected = "a duration like 48h, a time like 2026-12-02 18:00 UTC, or off"
    text = join(args.tokens).strip()
    if len(args.tokens) == 1 and args.tokens[0].text.lower() == "off":
        return DeadlineCommand(source=args.source)
    text, grace = _grace(text)
    if (after := parse_duration(text)) is not None:
        return DeadlineCommand(source=args.source, after=after, grace=grace)
    if (at := parse_instant(text)) is not None:
        return DeadlineCommand(source=args.source, at=at, grace=grace)
    raise ArgumentError(found=text, expected=expected)


_GRACE = re.compile(r"(.*?)\s+grace\b\s*(.*)", re.IGNORECASE)


def _grace(text: str) -> tuple[str, timedelta | None]:
    """The deadline's text and the grace written after it (``48h grace 12h``)."""
    found = _GRACE.fullmatch(text)
    if found is None:
        return text, None
    grace = parse_duration(found.group(2))
    if grace is None:
        raise ArgumentError(
            found=f"grace {found.group(2)}".strip(),
            expected="a grace like 12h after the deadline: !deadline 48h grace 12h",
        )
    return found.group(1).strip(), grace


_STANDING_EXPECTED = (
    "a tag like [physical: attack Goblin], or off "
    "(a GM names the character first: !standing Goblin [physical: attack Aria])"
)


def read_standing(args: Args) -> Command:
    """``!standing [TAG]``, ``!standing NAME [TAG]``, ``!standing off``, ``!standing NAME off``."""
    text = args.source.text.strip()
    rest = re.sub(r"^!\s*standing\b[.,:;]?", "", text, count=1, flags=re.IGNORECASE).strip()
    opening = rest.find("[")
    if opening < 0:
        words = rest.split()
        if words and words[-1].lower() == "off":
            return StandingCommand(source=args.source, name=" ".join(words[:-1]) or None)
        raise ArgumentError(found=rest, expected=_STANDING_EXPECTED)
    closing = rest.rfind("]")
    if closing < opening:
        raise ArgumentError(found=rest, expected=_STANDING_EXPECTED)
    name = rest[:opening].strip() or None
    return StandingCommand(source=args.source, name=name, tag=rest[opening : closing + 1])


def _name_then(args: Args, *, count: int, expected: str) -> tuple[str, tuple[Token, ...]]:
    """A name (every word before the last ``count``), and those last words."""
    tokens = glue_signs(args.tokens)
    name, tail = join(tokens[:-count]).strip(), tokens[-count:]
    if len(tokens) <= count or not name:
        raise ArgumentError(found=join(tokens), expected=expected)
    return name, tail


def read_bonus(args: Args) -> Command:
    """``!bonus NAME +2`` (or ``-2``)."""
    name, tail = _name_then(args, count=1, expected="a name and a number, like Aria +2")
    amount = number(
        tail, low=-CORRECTION_LIMIT, high=CORRECTION_LIMIT, expected="a number like +2 or -1"
    )
    return BonusCommand(source=args.source, name=name, amount=amount)


def _stat_and_amount(args: Args) -> tuple[str, CorrectedStat, int]:
    """``NAME body 1`` (or ``NAME 1 body``) for damage and heal; ``hp``/``wp`` in a fight."""
    expected = "a name, body or mind (hp or wp in a skirmish), and a number, like Aria body 1"
    name, tail = _name_then(args, count=2, expected=expected)
    stat_tokens = [token for token in tail if token.is_word(*_STATS)]
    if len(stat_tokens) != 1:
        raise ArgumentError(found=join(tail), expected=expected)
    numbers = [token for token in tail if token is not stat_tokens[0]]
    amount = number(
        numbers, low=-CORRECTION_LIMIT, high=CORRECTION_LIMIT, expected="a number like 1 or -1"
    )
    stat = next(s for s in _STATS if stat_tokens[0].is_word(s))
    return name, stat, amount


_STATS: tuple[CorrectedStat, ...] = ("body", "mind", "hp", "wp")


def read_damage(args: Args) -> Command:
    """``!damage NAME body 1``."""
    name, stat, amount = _stat_and_amount(args)
    return DamageCommand(source=args.source, name=name, stat=stat, amount=amount)


def read_heal(args: Args) -> Command:
    """``!heal NAME mind 1``."""
    name, stat, amount = _stat_and_amount(args)
    return HealCommand(source=args.source, name=name, stat=stat, amount=amount)


def read_oppose(args: Args) -> Command:
    """``!oppose TASK 4d6``."""
    expected = "a task and dice, like Breach the gate 4d6"
    task, tail = _name_then(args, count=1, expected=expected)
    match = _DICE.fullmatch(tail[0].text)
    if match is None:
        raise ArgumentError(found=tail[0].text, expected="dice like 4d6")
    dice, sides = int(match.group(1) or 1), int(match.group(2))
    if not (1 <= dice <= MAX_OPPOSE_DICE and 2 <= sides <= MAX_OPPOSE_SIDES):
        raise ArgumentError(
            found=tail[0].text,
            expected=f"1 to {MAX_OPPOSE_DICE} dice of 2 to {MAX_OPPOSE_SIDES} sides",
        )
    return OpposeCommand(source=args.source, task=task, dice=dice, sides=sides)


def read_difficulty(args: Args) -> Command:
    """``!difficulty POST 12`` or ``!difficulty POST NAME 12``: a post id (or permalink), the
    character whose course it is when the post holds several (the GM's NPC turns), then the
    difficulty."""
    expected = "a post, a character if the post has several, and a difficulty, like p7 Goblin 12"
    if len(args.tokens) < 2:
        raise ArgumentError(found=join(args.tokens), expected=expected)
    post = post_id(args.tokens[0].text)
    if post is None:
        raise ArgumentError(found=args.tokens[0].text, expected=expected)
    name = join(args.tokens[1:-1]).strip() or None
    dc = number(args.tokens[-1:], low=1, high=CORRECTION_LIMIT, expected="a difficulty like 12")
    return DifficultyCommand(source=args.source, post=post, character=name, dc=dc)


def read_rest(args: Args) -> Command:
    """``!rest night``."""
    words = [token for token in args.tokens if not token.is_punctuation]
    if len(words) != 1 or not words[0].is_word("night"):
        raise ArgumentError(found=join(args.tokens), expected="night")
    return RestCommand(source=args.source)


def read_recover(args: Args) -> Command:
    """``!recover Aria body 2``."""
    expected = "a name, body or mind, and the damage to recover, like Aria body 2"
    name, tail = _name_then(args, count=2, expected=expected)
    stats = [token for token in tail if token.is_word("body", "mind")]
    if len(stats) != 1:
        raise ArgumentError(found=join(tail), expected=expected)
    numbers = [token for token in tail if token is not stats[0]]
    amount = number(numbers, low=1, high=CORRECTION_LIMIT, expected="a number like 2")
    stat: Literal["body", "mind"] = "body" if stats[0].is_word("body") else "mind"
    return RecoverCommand(source=args.source, name=name, stat=stat, amount=amount)


def read_void(args: Args) -> Command:
    """``!void POST [REASON]``: a post id, or a permalink to the post; the rest of the line is
    the reason its author is told."""
    expected = "a post id or a link to the post, then the reason if you like"
    found = join(args.tokens)
    post = post_id(args.tokens[0].text) if args.tokens else None
    if post is None:
        raise ArgumentError(found=found, expected=expected)
    reason = join(args.tokens[1:]).strip()
    return VoidCommand(source=args.source, post=post, reason=reason or None)


def read_campaign(args: Args) -> Command:
    """``!campaign NAME``: the name runs to the end of the line."""
    name = join(args.tokens).strip()
    if not name:
        raise ArgumentError(found="", expected="the campaign's name, like The Sunken Keep")
    return CampaignCommand(source=args.source, name=name)


def read_sheet(args: Args) -> Command:
    """``!sheet`` or ``!sheet NAME``; the word ``private`` anywhere (unquoted) asks for the
    answer by private message."""
    private = any(token.is_word("private") for token in args.tokens)
    words = (t for t in args.tokens if not t.is_punctuation and not t.is_word("private"))
    name = join(words).strip()
    return SheetCommand(source=args.source, name=name or None, private=private)


def read_ack(args: Args) -> Command:
    """``!ack on`` or ``!ack off``."""
    words = [token for token in args.tokens if not token.is_punctuation]
    if len(words) == 1 and words[0].is_word("on", "off"):
        return AckCommand(source=args.source, on=words[0].is_word("on"))
    raise ArgumentError(found=join(words), expected="on or off, like !ack on")
