"""Readers of the commands that set up a scene: encounter, npc, group, feature, task (SPEC §2.5).

Names are kept as written; the engine resolves them when the command acts, because a later
line of the same post may name what an earlier line created.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import timedelta

from pbp.tags.command_args import (
    ArgumentError,
    Option,
    Token,
    join,
    merge_words,
    number,
    required_name,
    split_keywords,
    split_list,
)
from pbp.tags.command_control import Args
from pbp.tags.commands import (
    Command,
    EncounterCommand,
    EncounterEndCommand,
    FeatureCommand,
    GroupCommand,
    NpcCommand,
    TaskCommand,
)
from pbp.tags.model import SceneKind
from pbp.tags.times import parse_duration

SCORE_LIMIT = 999
DC_LIMIT = 9999

_KINDS = ", ".join(kind.value for kind in SceneKind) + " or end"


@functools.cache
def _encounter_options() -> dict[SceneKind, tuple[frozenset[str], str]]:
    """The options each scene kind takes, and how a wrong one is explained (its plugin's)."""
    from pbp.rulesets import plugins  # only when a post holds !encounter

    return {
        SceneKind(kind): (options, example)
        for plugin in plugins()
        for kind, options, example in plugin.encounter_options
    }


def _all_encounter_options() -> frozenset[str]:
    return frozenset().union(*(options for options, _ in _encounter_options().values()))


@functools.cache
def npc_scores() -> tuple[str, ...]:
    """The sheet numbers ``!npc`` takes by their campaign-file key (SPEC §3), each plugin's,
    in the order each says it stands."""
    from pbp.rulesets import plugins  # only when a post holds !npc

    listed = [score for plugin in plugins() for score in plugin.npc_scores]
    return tuple(key for key, _ in sorted(listed, key=lambda score: score[1]))


@functools.cache
def npc_flags() -> tuple[str, ...]:
    """The yes-or-no sheet keys ``!npc`` takes (``sapient no``), each plugin's."""
    from pbp.rulesets import plugins  # only when a post holds !npc

    listed = [flag for plugin in plugins() for flag in plugin.npc_flags]
    return tuple(key for key, _ in sorted(listed, key=lambda flag: flag[1]))


@functools.cache
def _npc_keywords() -> tuple[frozenset[str], dict[tuple[str, str], str]]:
    """!npc keywords: the two Distat stats, where the NPC stands, and the other sheet numbers
    and flags; a score of two words may be written apart (``bonus pool``)."""
    scores = npc_scores()
    pairs = {(key.partition("_")[0], key.partition("_")[2]): key for key in scores if "_" in key}
    return frozenset({"body", "mind", "side", "group", *scores, *npc_flags()}), pairs


def read_encounter(args: Args) -> Command:
    """``!encounter KIND [options]`` or ``!encounter end [medic A, B] [rally C]``."""
    if not args.tokens:
        raise ArgumentError(found="", expected=_KINDS)
    first, rest = args.tokens[0], args.tokens[1:]
    if first.is_word("end"):
        return _read_encounter_end(args, rest)
    try:
        kind = SceneKind(first.text.lower())
    except ValueError:
        raise ArgumentError(found=first.text, expected=_KINDS) from None
    head, options = split_keywords(rest, keywords=_all_encounter_options())
    allowed, example = _encounter_options().get(kind, (frozenset(), f"nothing after {kind}"))
    wrong = head[:1] or [Token(o.written) for o in options if o.keyword not in allowed][:1]
    if wrong:
        raise ArgumentError(found=join(wrong), expected=example)
    values = {option.keyword: option for option in options}
    return EncounterCommand(
        source=args.source,
        kind=kind,
        interval=_interval(values.get("interval")),
        ambush=_ambush(values.get("ambush")),
        pressure=_pressure(values.get("pressure")),
    )


def _interval(option: Option | None) -> timedelta | None:
    if option is None:
        return None
    text = join(option.values)
    duration = parse_duration(text)
    if duration is None:
        raise ArgumentError(found=text, expected="a duration like 1 day or 8h")
    return duration


def _ambush(option: Option | None) -> str | None:
    if option is None:
        return None
    side = join(option.values).strip()
    if not side:
        raise ArgumentError(found=option.written, expected="the side caught unaware, like party")
    return side


def _pressure(option: Option | None) -> bool:
    if option is None:
        return False
    words = [token for token in option.values if not token.is_punctuation]
    if not words:
        return True  # a bare "pressure" turns it on
    if len(words) == 1 and words[0].is_word("on", "off"):
        return words[0].is_word("on")
    raise ArgumentError(found=join(option.values), expected="pressure on or pressure off")


def _read_encounter_end(args: Args, tokens: Sequence[Token]) -> Command:
    """``end`` then ``medic NAMES`` and ``rally NAMES`` in either order, both optional."""
    expected = "medic and rally with names, like medic Aria, Dax rally Bram"
    head, options = split_keywords(tokens, keywords=frozenset({"medic", "rally"}))
    if [token for token in head if not token.is_punctuation]:
        raise ArgumentError(found=join(head), expected=expected)
    names: dict[str, tuple[str, ...]] = {}
    for option in options:
        names[option.keyword] = tuple(split_list(option.values))
        if not names[option.keyword]:
            raise ArgumentError(found=option.written, expected=expected)
    return EncounterEndCommand(
        source=args.source, medic=names.get("medic", ()), rally=names.get("rally", ())
    )


def read_npc(args: Args) -> Command:
    """``!npc NAME body 3 mind 2 [side foes] [group OTHER] [SCORE N …]``.

    The name is every word before the first keyword. Body and mind default to 0: an NPC of
    another ruleset may need neither.
    """
    keywords, pairs = _npc_keywords()
    tokens = merge_words(args.tokens, pairs)
    head, options = split_keywords(tokens, keywords=keywords)
    if not head:
        found = tokens[0].text if tokens else ""
        raise ArgumentError(found=found, expected="the NPC's name first, like Imp A body 2 mind 1")
    name = required_name(head, expected="the NPC's name first, like Imp A body 2 mind 1")
    values = {option.keyword: option for option in options}
    scores = tuple(
        (key, _score(values[key])) for key in npc_scores() if key in values
    )  # campaign-file order, whatever order they were typed in
    scores += tuple((key, _flag(values[key])) for key in npc_flags() if key in values)
    return NpcCommand(
        source=args.source,
        name=name,
        body=_score(values["body"]) if "body" in values else 0,
        mind=_score(values["mind"]) if "mind" in values else 0,
        side=_words(values.get("side")),
        group=_words(values.get("group")),
        scores=scores,
    )


def _score(option: Option) -> int:
    expected = f"a number from 0 to {SCORE_LIMIT} after {option.keyword}"
    return number(option.values, low=0, high=SCORE_LIMIT, expected=expected)


def _flag(option: Option) -> int:
    """``sapient no``: 1 for yes, 0 for no (a bare keyword is yes)."""
    words = [token for token in option.values if not token.is_punctuation]
    if not words:
        return 1
    if len(words) == 1 and words[0].is_word("yes", "no", "true", "false"):
        return 0 if words[0].is_word("no", "false") else 1
    raise ArgumentError(found=join(option.values), expected=f"{option.keyword} yes or no")


def _words(option: Option | None) -> str | None:
    if option is None:
        return None
    text = join(option.values).strip()
    if not text:
        raise ArgumentError(found=option.written, expected=f"a name after {option.keyword}")
    return text


def read_group(args: Args) -> Command:
    """``!group A, B, C``: at least two names, separated by commas (or ``and``)."""
    names = split_list(args.tokens)
    if len(names) < 2:
        raise ArgumentError(
            found=join(args.tokens), expected="at least two names separated by commas"
        )
    return GroupCommand(source=args.source, names=tuple(names))


def read_feature(args: Args) -> Command:
    """``!feature NAME [tn 4] [constraint 5]``."""
    head, options = split_keywords(args.tokens, keywords=frozenset({"tn", "constraint"}))
    name = required_name(head, expected="the feature's name first, like Door tn 4")
    values = {option.keyword: option for option in options}
    return FeatureCommand(
        source=args.source,
        name=name,
        tn=_score(values["tn"]) if "tn" in values else None,
        constraint=_score(values["constraint"]) if "constraint" in values else None,
    )


def read_task(args: Args) -> Command:
    """``!task NAME dc 60 [secret]``."""
    head, options = split_keywords(args.tokens, keywords=frozenset({"dc", "secret"}))
    name = required_name(head, expected="the task's name first, like Breach the gate dc 40")
    values = {option.keyword: option for option in options}
    if "dc" not in values:
        raise ArgumentError(found="", expected="dc and a number, like dc 60")
    secret = values.get("secret")
    if secret is not None and [token for token in secret.values if not token.is_punctuation]:
        raise ArgumentError(found=join(secret.values), expected="nothing after secret")
    dc = number(
        values["dc"].values, low=1, high=DC_LIMIT, expected=f"a number from 1 to {DC_LIMIT}"
    )
    return TaskCommand(source=args.source, name=name, dc=dc, secret=secret is not None)
