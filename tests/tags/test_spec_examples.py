"""Every tag line and reading rule of SPEC §2.1-2.4, read into the tag it means (table-driven)."""

from __future__ import annotations

import pytest
from tags_roster import context

from pbp.rulesets.abstract.tags import AbstractTag, Payment, PaymentKind, SkillSource
from pbp.rulesets.d20.tags import AidTag, CheckTag, Opponent
from pbp.rulesets.distat.tags import ActionPart, ActionTag, Maneuver, MoveTag
from pbp.tags import format_tag, parse_post
from pbp.tags.model import SceneKind

D, A, T, S, B = (SceneKind.DISTAT, SceneKind.ABSTRACT, SceneKind.D20, SceneKind.SKIRMISH,
                 SceneKind.BATTLE)  # fmt: skip

# (scene, what the player writes, the canonical form of what the bot reads)
READS = [
    # §2.1 Distat
    (D, "[move: Goblin]", "[move: Goblin]"),
    (D, "[move: Door]", "[move: Door]"),
    (D, "[move: away]", "[move: away]"),
    (D, "[move: Door, body]", "[move: Door, body]"),
    (D, "[move: Door, mind]", "[move: Door, mind]"),
    (D, "[physical: attack Ogre]", "[physical: attack Ogre]"),
    (D, "[mental: attack Goblin]", "[mental: attack Goblin]"),
    (D, "[physical: restrain Ogre]", "[physical: restrain Ogre]"),
    (D, "[mental: restrain Ogre]", "[mental: restrain Ogre]"),
    (D, "[physical: escape]", "[physical: escape]"),
    (D, "[physical: feat Door]", "[physical: feat Door]"),
    (D, "[mental: feat vs 4]", "[mental: feat vs 4]"),
    (D, "[mental: use Mind Spike on Ogre]", "[mental: use Mind Spike on Ogre]"),
    (
        D,
        "[physical: attack Goblin 1 with 3; attack Goblin 2 with 2]",
        "[physical: attack Goblin 1 with 3; attack Goblin 2 with 2]",
    ),
    (
        D,
        "[physical: attack Imp A with 3; restrain Imp B with 2; use Iron Grip on Imp C with 1]",
        "[physical: attack Imp A with 3; restrain Imp B with 2; use Iron Grip on Imp C with 1]",
    ),
    (D, "[identify: Ogre]", "[identify: Ogre]"),
    (D, "[pass]", "[pass]"),
    (D, "[physical: attack Goblin, bonus 2]", "[physical: attack Goblin, bonus 2]"),
    (D, "[physical: attack Goblin, as Ogre]", "[physical: attack Goblin, as Ogre]"),
    (D, "[pass: as Ogre]", "[pass: as Ogre]"),
    (D, "[move: away, mind, as Bram]", "[move: away, mind, as Bram]"),
    # reading rules: colon optional, separators, case, aliases, prefixes
    (D, "[move Door]", "[move: Door]"),
    (D, "[physical: attack Goblin | bonus 2]", "[physical: attack Goblin, bonus 2]"),
    (D, "[physical: attack Goblin / bonus 2]", "[physical: attack Goblin, bonus 2]"),
    (D, "[p attack Goblin bonus 2]", "[physical: attack Goblin, bonus 2]"),
    (D, "[m attack Goblin]", "[mental: attack Goblin]"),
    (D, "[PHYSICAL: ATTACK goblin, BONUS 2]", "[physical: attack Goblin, bonus 2]"),
    (D, "[physical: attack goblin a]", "[physical: attack Goblin Archer]"),
    (D, "[move: do]", "[move: Door]"),
    (D, "[move:Door]", "[move: Door]"),
    (
        D,
        "[physical: attack Goblin Archer bonus 1 as Aria]",
        "[physical: attack Goblin Archer, bonus 1, as Aria]",
    ),
    # §2.2 Epic Path
    (
        A,
        "[abstract: Profession (Siege) +12 on Breach the gate]",
        "[abstract: Profession (Siege) +12 on Breach the gate]",
    ),
    (
        A,
        "[abstract: Athletics +4 on Breach the gate, bailiwick]",
        "[abstract: Athletics +4 on Breach the gate, bailiwick]",
    ),
    (
        A,
        "[abstract: Diplomacy +2 on Calm the crowd, other]",
        "[abstract: Diplomacy +2 on Calm the crowd, other]",
    ),
    (A, "[abstract: spell on Breach the gate]", "[abstract: spell on Breach the gate]"),
    (
        A,
        "[abstract: Athletics +4 on breach, spend 12]",
        "[abstract: Athletics +4 on Breach the gate, spend 12]",
    ),
    (
        A,
        "[abstract: Athletics +4 on breach, spend all]",
        "[abstract: Athletics +4 on Breach the gate, spend all]",
    ),
    (
        A,
        "[abstract: Athletics +4 on breach, bank]",
        "[abstract: Athletics +4 on Breach the gate, bank]",
    ),
    (A, "[abstract: Athletics +4 on breach, auto]", "[abstract: Athletics +4 on Breach the gate]"),
    (A, "[reaction]", "[reaction]"),
    # §2.3 d20
    (T, "[check: Perception +5 vs 15]", "[check: Perception +5 vs 15]"),
    (
        T,
        "[check: Stealth +7 vs Goblin Perception +3]",
        "[check: Stealth +7 vs Goblin Perception +3]",
    ),
    (T, "[check: Climb +2 vs 15, take 10]", "[check: Climb +2 vs 15, take 10]"),
    (T, "[check: Climb +2 vs 15 take 1]", "[check: Climb +2 vs 15, take 1]"),
    (T, "[check: Climb +2 vs 15 | take 20]", "[check: Climb +2 vs 15, take 20]"),
    (
        T,
        "[check: Disable Device +4 vs 20, tools none]",
        "[check: Disable Device +4 vs 20, tools none]",
    ),
    (
        T,
        "[check: Disable Device +4 vs 20, tools improvised, pool]",
        "[check: Disable Device +4 vs 20, tools improvised, pool]",
    ),
    (T, "[attack: +6 vs 15]", "[attack: +6 vs 15]"),
    (T, "[aid: Bram Climb +3]", "[aid: Bram Climb +3]"),
    (T, "[roll: 2d6+3]", "[roll: 2d6+3]"),
    (D, "[roll: 4d6kh3]", "[roll: 4d6kh3]"),
    (D, "[roll: 2d6 + 3]", "[roll: 2d6+3]"),
    (D, "[roll: 3d6!]", "[roll: 3d6!]"),
    # §2.4 Markhorspire
    (S, "[attack: Goblin]", "[attack: Goblin]"),
    (B, "[attack: Goblin, adv]", "[attack: Goblin, adv]"),
    (S, "[attack: Goblin dis]", "[attack: Goblin, dis]"),
    (S, "[cast: Ogre]", "[cast: Ogre]"),
    (S, "[cast: heal Bram]", "[cast: heal Bram]"),
    (S, "[act: climb the rope to the balcony]", "[act: climb the rope to the balcony]"),
    (S, "[act: climb the rope, adv]", "[act: climb the rope, adv]"),
    (S, "[act: shove the cart adv]", "[act: shove the cart, adv]"),
    (S, "[act: hide | as Bram]", "[act: hide, as Bram]"),
]


@pytest.mark.parametrize(("scene", "text", "canonical"), READS)
def test_each_spec_example_reads_into_its_tag(scene: SceneKind, text: str, canonical: str) -> None:
    parsed = parse_post(f"Some prose first. {text} And after.", context=context(scene))
    assert parsed.problems == ()
    assert [format_tag(tag) for tag in parsed.tags] == [canonical]


def test_physical_and_mental_pick_the_stat() -> None:
    parsed = parse_post("[physical: attack Ogre] [mental: attack Ogre]", context=context())
    assert [tag.stat for tag in parsed.tags if isinstance(tag, ActionTag)] == ["body", "mind"]


def test_a_split_keeps_each_share_and_target() -> None:
    text = "[physical: attack Goblin 1 with 3; attack Goblin 2 with 2]"
    (tag,) = parse_post(text, context=context()).tags
    assert isinstance(tag, ActionTag) and tag.is_split
    assert tag.parts == (
        ActionPart(maneuver=Maneuver.ATTACK, target="Goblin 1", share=3),
        ActionPart(maneuver=Maneuver.ATTACK, target="Goblin 2", share=2),
    )


def test_move_stat_and_actor_are_fields() -> None:
    (tag,) = parse_post("[move: Door, mind, as Bram]", context=context()).tags
    assert tag == MoveTag(source=tag.source, target="Door", stat="mind", as_name="Bram")


def test_abstract_fields() -> None:
    text = "[abstract: Profession (Siege) +12 on Breach the gate, bailiwick, spend 6]"
    (tag,) = parse_post(text, context=context(A)).tags
    assert tag == AbstractTag(
        source=tag.source, skill="Profession (Siege)", modifier=12, task="Breach the gate",
        skill_source=SkillSource.BAILIWICK, payment=Payment(kind=PaymentKind.SPEND, amount=6),
    )  # fmt: skip


def test_opposed_check_and_aid_fields() -> None:
    text = "[check: Stealth +7 vs Goblin Perception +3] [aid: Bram Climb +3]"
    check, aid = parse_post(text, context=context(T)).tags
    assert isinstance(check, CheckTag)
    assert check.opponent == Opponent(name="Goblin", skill="Perception", modifier=3)
    assert check.dc is None
    assert aid == AidTag(source=aid.source, target="Bram", skill="Climb", modifier=3)


def test_advantage_counts_adv_minus_dis() -> None:
    (tag,) = parse_post("[attack: Goblin, adv, adv, dis]", context=context(S)).tags
    assert format_tag(tag) == "[attack: Goblin, adv]"


def test_tags_act_in_order_and_are_numbered_from_zero() -> None:
    text = (
        "Aria ducks under the club. [physical: attack Ogre] Then she falls back. [move: Door, mind]"
    )
    tags = parse_post(text, context=context()).tags
    assert [tag.source.index for tag in tags] == [0, 1]
    assert [tag.source.column for tag in tags] == [28, 73]
    assert tags[0].source.text == "[physical: attack Ogre]"


# Brackets without a colon that do not read whole are prose and raise nothing.
PROSE = [
    "[roll eyes]",
    "[check the rules thread]",
    "[move along]",
    "[OOC: sorry, busy week]",
    "[sic]",
    "[note: I will be away]",
    "[physical attack the air]",
    "[p.s. see you]",
    "[2d6]",
    "[]",
    "[ ]",
    "[moved to the door]",
    "[attack the air]",  # a verb of other scenes, without a colon, naming no one
    "[check the gate]",
]


@pytest.mark.parametrize("text", PROSE)
def test_bracketed_prose_is_neither_tag_nor_problem(text: str) -> None:
    parsed = parse_post(f"She shrugs. {text}", context=context())
    assert parsed.tags == () and parsed.problems == ()
