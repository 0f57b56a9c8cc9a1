"""Properties: the reader never fails, typed tags read back to themselves, Markdown rules hold."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st
from tags_roster import CHARACTERS, FEATURES, TALENTS, TASKS, context

from pbp.rulesets.abstract.tags import AbstractTag, Payment, PaymentKind, ReactionTag, SkillSource
from pbp.rulesets.d20.tags import AidTag, AttackRollTag, CheckTag, Opponent
from pbp.rulesets.distat.tags import ActionPart, ActionTag, IdentifyTag, Maneuver, MoveTag
from pbp.rulesets.markhor.tags import ActTag, CastTag, SkirmishAttackTag
from pbp.tags import format_tag, parse_post
from pbp.tags.model import PassTag, RollTag, SceneKind, Source
from pbp.tags.registry import Tag

SOURCE = Source(index=0, line=1, column=1, text="")
chars = st.sampled_from(CHARACTERS)
maybe_as = st.none() | chars
small = st.integers(min_value=0, max_value=30)
modifiers = st.integers(min_value=-5, max_value=25)
skills = st.sampled_from(["Athletics", "Profession (Siege)", "Disable Device", "Climb"])


@st.composite
def single_parts(draw: st.DrawFn) -> ActionPart:
    maneuver = draw(st.sampled_from(Maneuver))
    match maneuver:
        case Maneuver.ESCAPE:
            return ActionPart(maneuver=maneuver)
        case Maneuver.FEAT:
            if draw(st.booleans()):
                return ActionPart(maneuver=maneuver, tn=draw(small))
            return ActionPart(maneuver=maneuver, target=draw(st.sampled_from(FEATURES)))
        case Maneuver.USE:
            talent = draw(st.sampled_from(TALENTS))
            return ActionPart(maneuver=maneuver, talent=talent, target=draw(chars))
        case _:
            return ActionPart(maneuver=maneuver, target=draw(chars))


@st.composite
def split_parts(draw: st.DrawFn) -> ActionPart:
    maneuver = draw(st.sampled_from([Maneuver.ATTACK, Maneuver.RESTRAIN, Maneuver.USE]))
    talent = draw(st.sampled_from(TALENTS)) if maneuver == Maneuver.USE else None
    return ActionPart(maneuver=maneuver, target=draw(chars), talent=talent, share=draw(small))


actions = st.one_of(
    st.builds(ActionTag, source=st.just(SOURCE), stat=st.sampled_from(["body", "mind"]),
              parts=st.tuples(single_parts()), bonus=small, as_name=maybe_as),
    st.builds(ActionTag, source=st.just(SOURCE), stat=st.sampled_from(["body", "mind"]),
              parts=st.lists(split_parts(), min_size=2, max_size=4).map(tuple), as_name=maybe_as),
)  # fmt: skip
payments = st.one_of(
    st.sampled_from([Payment(), Payment(kind=PaymentKind.ALL), Payment(kind=PaymentKind.BANK)]),
    st.builds(Payment, kind=st.just(PaymentKind.SPEND), amount=small),
)
abstracts = st.one_of(
    st.builds(AbstractTag, source=st.just(SOURCE), skill=skills, modifier=modifiers,
              task=st.sampled_from(TASKS), payment=payments, as_name=maybe_as,
              skill_source=st.sampled_from([SkillSource.SKILL, SkillSource.BAILIWICK,
                                            SkillSource.OTHER])),
    st.builds(AbstractTag, source=st.just(SOURCE), skill=st.none(), modifier=st.just(0),
              task=st.sampled_from(TASKS), skill_source=st.just(SkillSource.SPELL),
              payment=payments, as_name=maybe_as),
)  # fmt: skip
checks = st.builds(
    CheckTag, source=st.just(SOURCE), skill=skills, modifier=modifiers, as_name=maybe_as,
    take=st.sampled_from([None, 1, 10, 20]), tools=st.sampled_from([None, "none", "improvised"]),
    pool=st.booleans(),
).flatmap(
    lambda tag: st.one_of(
        st.builds(dataclasses.replace, st.just(tag), dc=small),
        st.builds(dataclasses.replace, st.just(tag), opponent=st.builds(
            Opponent, name=chars, skill=skills, modifier=modifiers)),
    )
)  # fmt: skip
advantage = st.integers(min_value=-2, max_value=2)
act_text = st.lists(st.sampled_from(["climb", "the", "rope", "shove", "cart", "Sing"]),
                    min_size=1, max_size=5).map(" ".join)  # fmt: skip

BY_SCENE: list[tuple[SceneKind, st.SearchStrategy[Tag]]] = [
    (SceneKind.DISTAT, st.builds(MoveTag, source=st.just(SOURCE), as_name=maybe_as,
                                 target=st.none() | chars | st.sampled_from(FEATURES),
                                 stat=st.sampled_from([None, "body", "mind"]))),
    (SceneKind.DISTAT, actions),
    (SceneKind.DISTAT, st.builds(IdentifyTag, source=st.just(SOURCE), target=chars,
                                 as_name=maybe_as)),
    (SceneKind.DISTAT, st.builds(PassTag, source=st.just(SOURCE), as_name=maybe_as)),
    (SceneKind.ABSTRACT, abstracts),
    (SceneKind.ABSTRACT, st.builds(ReactionTag, source=st.just(SOURCE), as_name=maybe_as)),
    (SceneKind.D20, checks),
    (SceneKind.D20, st.builds(AttackRollTag, source=st.just(SOURCE), modifier=modifiers,
                              defense=small, as_name=maybe_as)),
    (SceneKind.D20, st.builds(AidTag, source=st.just(SOURCE), target=chars, skill=skills,
                              modifier=modifiers, as_name=maybe_as)),
    (SceneKind.D20, st.builds(RollTag, source=st.just(SOURCE), as_name=maybe_as,
                              expression=st.sampled_from(["2d6+3", "4d6kh3", "1d20!", "3d8-1"]))),
    (SceneKind.SKIRMISH, st.builds(SkirmishAttackTag, source=st.just(SOURCE), target=chars,
                                   advantage=advantage, as_name=maybe_as)),
    (SceneKind.BATTLE, st.builds(CastTag, source=st.just(SOURCE), target=chars,
                                 heal=st.booleans(), advantage=advantage, as_name=maybe_as)),
    (SceneKind.SKIRMISH, st.builds(ActTag, source=st.just(SOURCE), text=act_text,
                                   advantage=advantage, as_name=maybe_as)),
]  # fmt: skip
scene_tags = st.one_of(*(st.tuples(st.just(scene), tags) for scene, tags in BY_SCENE))


@settings(max_examples=300)
@given(scene_tags)
def test_a_formatted_tag_reads_back_to_itself(scene_and_tag: tuple[SceneKind, Tag]) -> None:
    scene, tag = scene_and_tag
    text = format_tag(tag)
    parsed = parse_post(f"Prose. {text} More prose.", context=context(scene))
    assert parsed.problems == (), text
    (read,) = parsed.tags
    assert dataclasses.replace(read, source=SOURCE) == tag
    assert read.source.text == text


ALPHABET = st.sampled_from(
    [*"[]:;,|/!>*_~`\\ \n\t#-()+0123456789abcdefgmopvsy", "move", "physical", "attack",
    "Goblin", "\uff3b", "\u201c", "\u00a0", ">!", "!<", "```", "\n\n", "    ", "~~", "p", "with"]
)  # fmt: skip


@settings(max_examples=300)
@given(
    text=st.one_of(st.text(), st.lists(ALPHABET, max_size=60).map("".join)),
    scene=st.sampled_from(list(SceneKind)),
    gm=st.booleans(),
)
def test_any_text_yields_tags_and_problems_never_an_exception(
    text: str, scene: SceneKind, gm: bool
) -> None:
    parsed = parse_post(text, context=context(scene, gm=gm))
    assert [tag.source.index for tag in parsed.tags] == list(range(len(parsed.tags)))
    assert all(problem.line >= 0 and problem.column >= 0 for problem in parsed.problems)
    assert len(parsed.tags) <= (100 if gm else 20)


# Blocks of a generated post: whether a tag inside one is read.
BLOCKS: list[tuple[str, bool]] = [
    ("She waits. {tag}", True),
    ("**{tag}**", True),
    (">!{tag}!<", True),
    ("- a list item {tag}\n\nafter the list", True),  # then indented text is code again
    ("> quoted {tag}", False),
    ("> quoted\nlazy line {tag}", False),
    ("`{tag}`", False),
    ("```\n{tag}\n```", False),
    ("    {tag}", False),
    ("~~{tag}~~", False),
    ("{tag}(https://example.com)", False),
]


@settings(max_examples=200)
@given(st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=8), st.sampled_from(CHARACTERS))
def test_markdown_rules_hold_on_generated_posts(
    blocks: list[tuple[str, bool]], target: str
) -> None:
    tag = f"[physical: attack {target}]"
    post = "\n\n".join(block.format(tag=tag) for block, _ in blocks)
    parsed = parse_post(post, context=context())
    assert parsed.problems == ()
    assert len(parsed.tags) == sum(read for _, read in blocks)
