"""The edits a problem reply's example makes to the writer's tag: one fix, every other word
kept as written (its separators, its case, its options)."""

from __future__ import annotations

from pbp.render.tag_edits import closest, code, split_within, swapped, with_option, without


def test_a_name_is_swapped_after_the_verb_and_the_options_stay() -> None:
    assert swapped("[p: attack archer | bonus 2]", "ARCHER", "Shaman") == (
        "[p: attack Shaman | bonus 2]"
    )
    assert swapped("[move: Door]", "Gate", "Door") == "[move: Door]"  # nothing to swap


def test_an_option_goes_with_its_value_and_separator() -> None:
    assert without("[check: Climb +4 vs 12, take 10, pool]", "take") == (
        "[check: Climb +4 vs 12, pool]"
    )
    assert without("[attack: Hound | damage 2 | damage 3]", "damage") == "[attack: Hound]"


def test_an_option_is_added_with_the_writers_separator() -> None:
    assert with_option("[p attack Aria, bonus 1]", "as Imp") == "[p attack Aria, bonus 1, as Imp]"
    assert with_option("[physical: attack Aria]", "as Imp") == "[physical: attack Aria | as Imp]"


def test_a_split_is_cut_in_one_share_when_one_can_take_it() -> None:
    tag = "[physical: attack A with 5; attack B with 4]"
    assert split_within(tag, 6) == "[physical: attack A with 5; attack B with 1]"
    assert split_within("[physical: attack A with 6; attack B with 6]", 6) == (
        "[physical: attack A with 3; attack B with 3]"
    )


def test_the_closest_name_holds_the_word_and_is_never_one_to_avoid() -> None:
    assert closest("archer", ["Aria", "Goblin Archer"], ["Aria"]) == "Goblin Archer"
    assert closest("aria", ["Aria", "Goblin Archer"], ["Aria"]) == ""


def test_an_example_mentions_nobody_and_links_nowhere() -> None:
    assert code("[p: attack u/spam `x` https://x.example]") == "[p: attack 'x']"
