"""Typed tags: what one bracketed instruction in a post means (SPEC §2.1 to §2.4).

Every tag carries ``source`` (where it stood and how it was written) and ``as_name`` (the
``as NAME`` option, resolved to a roster name, or None). Names in tags are resolved against the
scene's names while parsing (exact, then unique prefix), so a tag that exists holds canonical
names only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

Stat = Literal["body", "mind"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """Where a tag or command stood in its post and how it was written.

    ``index`` counts the tags of the post from 0 (a split is one tag; commands count their own
    lines from 0): it is the tag's part of the dice key (SPEC §6).
    """

    index: int
    line: int
    column: int
    text: str


# --------------------------------------------------------------------------------------------
# Distat (SPEC §2.1)


class Maneuver(StrEnum):
    """What a physical or mental action does."""

    ATTACK = "attack"
    RESTRAIN = "restrain"
    ESCAPE = "escape"
    FEAT = "feat"
    USE = "use"


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionPart:
    """One check of a physical or mental action; a split has several.

    ``target`` is a character (attack, restrain, use) or a feature (feat); ``tn`` is the
    target number of ``feat vs N``; ``talent`` is the talent of ``use TALENT on TARGET``;
    ``share`` is the ``with N`` of a split part (None outside splits).
    """

    maneuver: Maneuver
    target: str | None = None
    talent: str | None = None
    tn: int | None = None
    share: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveTag:
    """``[move: TARGET]`` or ``[move: away]``; ``stat`` picks the Threatened-check stat."""

    source: Source
    target: str | None  # None: move away and stand alone
    stat: Stat | None = None
    as_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionTag:
    """``[physical: …]`` (stat body) or ``[mental: …]`` (stat mind): one part, or a split."""

    source: Source
    stat: Stat
    parts: tuple[ActionPart, ...]
    bonus: int = 0
    as_name: str | None = None

    @property
    def is_split(self) -> bool:
        """Whether the action is split into several checks (SPEC §2.1, RULES D7)."""
        return len(self.parts) > 1


@dataclass(frozen=True, slots=True, kw_only=True)
class IdentifyTag:
    """``[identify: TARGET]``: uses the move (RULES D13)."""

    source: Source
    target: str
    as_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PassTag:
    """``[pass]``: the character is done for the round."""

    source: Source
    as_name: str | None = None


# --------------------------------------------------------------------------------------------
# Epic Path abstract encounters (SPEC §2.2)


class SkillSource(StrEnum):
    """What the abstract skill roll uses, which fixes the divisor (RULES E1, E3)."""

    SKILL = "skill"  # the action's proper skill: ÷ 5
    BAILIWICK = "bailiwick"  # ÷ 10
    OTHER = "other"  # another skill the GM allowed: ÷ 12
    SPELL = "spell"  # five spell slots: unmodified d20 ÷ 5


class PaymentKind(StrEnum):
    """How the action dice are used."""

    AUTO = "auto"
    SPEND = "spend"
    ALL = "all"
    BANK = "bank"


@dataclass(frozen=True, slots=True, kw_only=True)
class Payment:
    """``spend N`` (kind SPEND, amount N), ``spend all``, ``bank`` or ``auto``."""

    kind: PaymentKind = PaymentKind.AUTO
    amount: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AbstractTag:
    """``[abstract: SKILL +N on TASK, …]`` or ``[abstract: spell on TASK]``; without ``+N`` the
    skill's bonus comes from the character's sheet."""

    source: Source
    skill: str | None  # None for spell
    modifier: int | None  # None: the sheet's
    task: str
    skill_source: SkillSource = SkillSource.SKILL
    payment: Payment = Payment()
    as_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReactionTag:
    """``[reaction]``: roll the Reaction Die (RULES E12)."""

    source: Source
    as_name: str | None = None


# --------------------------------------------------------------------------------------------
# d20 Advanced and generic dice (SPEC §2.3)


@dataclass(frozen=True, slots=True, kw_only=True)
class Opponent:
    """The other side of an opposed d20 check: ``vs Goblin Perception +3`` (without ``+3``:
    the bonus on Goblin's sheet)."""

    name: str
    skill: str
    modifier: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckTag:
    """``[check: SKILL +N vs DC]`` or ``[check: SKILL +N vs NAME SKILL +M]`` with options; a
    bonus left out is the character's sheet's."""

    source: Source
    skill: str
    modifier: int | None
    dc: int | None = None
    opponent: Opponent | None = None
    take: Literal[1, 10, 20] | None = None
    tools: Literal["none", "improvised"] | None = None
    pool: bool = False
    as_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackRollTag:
    """``[attack: +6 vs 15]`` in a d20 scene; ``[attack: vs Goblin]`` or ``[attack: Goblin]``
    take the attack bonus and the Defense from the sheets."""

    source: Source
    modifier: int | None
    defense: int | None
    target: str | None = None  # whose Defense, when no number is given
    as_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AidTag:
    """``[aid: NAME SKILL +N]``: aid another (RULES A5); without ``+N``: the sheet's bonus."""

    source: Source
    target: str
    skill: str
    modifier: int | None
    as_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CompareTag:
    """``[compare: Strength 16 vs Ogre 18]``: a comparison check, no roll (RULES A12); a score
    left out is the sheet's; ``boost N`` raises one's own for this check (Hero Dice, by hand)."""

    source: Source
    score: str
    value: int | None
    opponent: str
    opponent_value: int | None
    boost: int = 0
    as_name: str | None = None


RESISTANCES = ("fortitude", "will", "toughness", "defense")
# the condition tracks an effect may worsen (RULES A10), as a tag writes them
TRACKS = ("injury", "advantage", "action", "check", "movement")


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectTag:
    """``[effect: +6 vs Goblin Fortitude]`` or ``[effect: +6 vs 15]``: an attack or effect roll
    against a resistance's static DC, 10 + the target's rank in it (RULES A9); a bonus or rank
    left out is the sheet's."""

    source: Source
    modifier: int | None
    dc: int | None = None
    target: str | None = None
    resistance: str | None = None  # one of RESISTANCES, with ``target``
    inflict: str | None = None  # one of TRACKS: the target's track worsens when it gets through
    as_name: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RollTag:
    """``[roll: 2d6+3]``: generic dice; ``expression`` is checked notation."""

    source: Source
    expression: str
    as_name: str | None = None


# --------------------------------------------------------------------------------------------
# Markhorspire skirmishes and battles (SPEC §2.4)


@dataclass(frozen=True, slots=True, kw_only=True)
class SkirmishAttackTag:
    """``[attack: TARGET]`` in a skirmish or battle; ``react``: a battle reaction, made during
    the target's turn (RULES M7)."""

    source: Source
    target: str
    advantage: int = 0  # count of `adv` minus count of `dis` (RULES M6 clamps it)
    react: bool = False
    as_name: str | None = None
    amount: str | None = None  # `damage N` / `damage 2d6`: a battle hit's damage (RULES §6)


@dataclass(frozen=True, slots=True, kw_only=True)
class CastTag:
    """``[cast: TARGET]`` or ``[cast: heal NAME]``; ``react`` as for an attack."""

    source: Source
    target: str
    heal: bool = False
    advantage: int = 0
    react: bool = False
    as_name: str | None = None
    amount: str | None = None  # battle: `damage` of a cast, `amount` of a heal (RULES §6)


@dataclass(frozen=True, slots=True, kw_only=True)
class ActTag:
    """``[act: free text]``: any other course of action."""

    source: Source
    text: str
    advantage: int = 0
    as_name: str | None = None


Tag = (
    MoveTag
    | ActionTag
    | IdentifyTag
    | PassTag
    | AbstractTag
    | ReactionTag
    | CheckTag
    | AttackRollTag
    | AidTag
    | CompareTag
    | EffectTag
    | RollTag
    | SkirmishAttackTag
    | CastTag
    | ActTag
)


class SceneKind(StrEnum):
    """What a thread is running now (SPEC §1); it fixes which verbs exist."""

    DISTAT = "distat"
    ABSTRACT = "abstract"
    D20 = "d20"
    SKIRMISH = "skirmish"
    BATTLE = "battle"


# Words a name may not be on its own (the campaign loader refuses them), and characters a name
# may not contain: they would make tags ambiguous (SPEC §2).
RESERVED_WORDS: frozenset[str] = frozenset(
    {
        # verbs and aliases
        "move", "physical", "mental", "identify", "pass", "roll", "abstract", "reaction",
        "check", "attack", "aid", "compare", "effect", "cast", "act", "p", "m",
        # maneuver words
        "restrain", "escape", "feat", "use", "on", "with", "vs",
        # option words
        "bonus", "as", "body", "mind", "away", "bailiwick", "other", "spend", "all", "bank",
        "auto", "take", "tools", "none", "improvised", "pool", "adv", "dis", "heal", "spell",
        "react",
    }
)  # fmt: skip
NAME_FORBIDDEN_CHARS: frozenset[str] = frozenset("[]|,;:/")
