"""Condition tracks reached from a tag (RULES A10): `[effect: … | inflict TRACK]` worsens the
target one step on that track when the effect gets through; the tracks are independent, held
within their steps, shown on `!sheet`, in the scene table and the summary, and kept in the
ledger only for an effect that inflicts."""

from __future__ import annotations

from typing import Any

from engine_helpers import BOT, event_of, ledger

from pbp.campaign.loader import parse_campaign
from pbp.rulesets.d20.engine.model import D20Report, D20State
from pbp.rulesets.d20.rules.conditions import Track
from pbp.services.seeds import round_seeds
from pbp.tags.problems import BadNumber

CAMPAIGN = """
[campaign]
name = "Tracks"
gms = ["gm_sam"]
ruleset = "d20"
visibility = "{visibility}"

[[characters]]
name = "Aria"
player = "alice"

[[characters]]
name = "Goblin"
skills = {{ Toughness = 2, Will = 1 }}
"""
SURE = "[effect: +30 vs Goblin Toughness | inflict movement]"  # d20 + 30 always beats DC 12
NEVER = "[effect: -30 vs Goblin Will | inflict injury]"  # d20 - 30 never beats DC 11


def play(rounds: list[list[str]], *, visibility: str = "open") -> Any:
    """Each round's posts (by alice; by the GM when they start with ``gm:``), then the GM's
    close; the thread with its replies."""
    from thread_run import new_run

    campaign = parse_campaign(CAMPAIGN.format(visibility=visibility), path="t.toml")
    run = new_run(campaign, seed_for=round_seeds("1"), bot=BOT)
    minute = 0
    for number, posts in enumerate(rounds, start=1):
        for i, body in enumerate(posts):
            author = "gm_sam" if body.startswith("gm:") else "alice"
            body = body.removeprefix("gm:")
            run.feed(event_of(("post", f"r{number}p{i}", author, minute, body)))
            minute += 1
        run.feed(event_of(("post", f"c{number}", "gm_sam", minute, "!close")))
        minute += 1
    return run


def records(run: Any, number: int) -> list[Any]:
    report = run.reports[number]
    return [e.record for e in report.parts.get(D20Report).entries]


def test_an_effect_that_gets_through_worsens_the_targets_track_one_step() -> None:
    run = play([[SURE], [SURE, "!sheet Goblin"]])
    (first,) = records(run, 1)
    assert (first.outcome, first.inflicted, first.condition) == ("success", "movement", "step 1")
    (second,) = records(run, 2)
    assert second.condition == "step 2"  # the steps add up, round after round
    goblin = run.state.slot(D20State).condition("Goblin")
    assert goblin.position(Track.MOVEMENT) == 2
    assert goblin.position(Track.INJURY) == 0  # the tracks are independent
    assert "Goblin's movement track: step 1" in run.posted["summary-1"].text


def test_an_effect_that_fails_leaves_the_track_where_it_was() -> None:
    run = play([[NEVER]])
    (failed,) = records(run, 1)
    assert (failed.outcome, failed.inflicted, failed.condition) == ("failure", "injury", "normal")
    assert run.state.slot(D20State).condition("Goblin").position(Track.INJURY) == 0


def test_a_track_holds_at_its_worst_step() -> None:
    run = play([[SURE]] * 6)
    assert [records(run, n)[0].condition for n in range(1, 7)] == [
        "step 1",
        "step 2",
        "step 3",
        "step 4",
        "step 4",
        "step 4",
    ]


def test_the_sheet_and_the_scene_table_show_the_tracks_off_their_best_step() -> None:
    run = play([[SURE], ["gm:!sheet Goblin\n!status"]])
    texts = [r.text for r in run.posted.values()]
    assert any("Conditions" in t and "movement step 1" in t for t in texts), texts
    assert any("Goblin: movement step 1." in t for t in texts), texts


def test_under_hide_npcs_an_npcs_tracks_stay_off_its_sheet_and_the_table() -> None:
    run = play([[SURE], ["gm:!sheet Goblin\n!status"]], visibility="hide-npcs")
    sheet, status = run.posted["r2p0-1"].text, run.posted["r2p0-2"].text
    assert "movement" not in sheet and "movement" not in status


def test_a_new_scene_keeps_an_injury_and_ends_the_other_conditions() -> None:
    hurt = "[effect: +30 vs Goblin Toughness | inflict injury]"
    run = play([[SURE, hurt], ["gm:!encounter d20"]])
    goblin = run.state.slot(D20State).condition("Goblin")
    assert goblin.position(Track.INJURY) == 1 and goblin.position(Track.MOVEMENT) == 0


def test_the_ledger_keeps_the_track_only_for_an_effect_that_inflicts() -> None:
    run = play([[SURE, "[effect: +30 vs Goblin Will]"]])
    inflicts, plain = ledger(run)["rounds"][0]["actions"]
    assert (inflicts["inflicted"], inflicts["condition"]) == ("movement", "step 1")
    assert "inflicted" not in plain and "condition" not in plain


def test_an_unknown_track_is_refused_with_the_tracks_to_choose() -> None:
    run = play([["[effect: +6 vs Goblin Toughness | inflict bleeding]"]])
    [problem] = run.state.closed[0].reopen.posts[0].problems
    assert isinstance(problem, BadNumber)
    assert problem.expected == "injury or advantage or action or check or movement"


def test_the_option_reads_back_as_written() -> None:
    from pbp.rulesets.d20.tags import EffectTag
    from pbp.tags import ReadContext, format_tag, parse_post
    from pbp.tags.model import SceneKind

    context = ReadContext(
        scene=SceneKind.D20,
        characters=("Aria", "Goblin"),
        features=(),
        talents=(),
        tasks=(),
        gm=False,
    )
    [tag] = parse_post("[effect: +6 vs goblin toughness | inflict Movement]", context=context).tags
    assert isinstance(tag, EffectTag) and tag.inflict == "movement"
    assert format_tag(tag) == "[effect: +6 vs Goblin Toughness, inflict movement]"


HURT = "[effect: +30 vs Goblin Toughness | inflict injury]"  # always gets through


def _injury(run: Any) -> int:
    return run.state.slot(D20State).condition("Goblin").position(Track.INJURY)


def test_A10_a_nights_rest_eases_an_injury_one_step_and_says_so() -> None:
    run = play([[HURT], [HURT], ["gm:!rest night"], [HURT]])
    assert [records(run, n)[0].condition for n in (1, 2, 4)] == ["step 1", "step 2", "step 2"]
    assert _injury(run) == 2  # 2, eased to 1 by the night, then the next wound: 2, not 3
    said = run.posted["done-r3p0"].text
    assert "The night's rest eases **Goblin**'s injury one step (now step 1)." in said, said
    assert "Body" not in said  # a d20 campaign keeps no Body or Mind


def test_A10_medical_care_at_the_end_of_an_encounter_eases_an_injury_one_step() -> None:
    run = play([[HURT], [HURT], ["gm:!encounter end medic Goblin"], [HURT]])
    assert _injury(run) == 2
    said = run.posted["summary-3"].text  # the closing GM post's one reply
    assert "Medical care eases **Goblin**'s injury one step (now step 1)." in said, said


def test_A10_only_the_character_given_care_is_eased() -> None:
    run = play([[HURT], ["gm:!encounter end medic Aria"]])
    assert _injury(run) == 1
    assert "eases" not in run.posted["summary-2"].text


def test_A10_under_hide_npcs_the_rest_names_no_step_of_an_npc() -> None:
    run = play([[HURT], ["gm:!rest night"]], visibility="hide-npcs")
    said = run.posted["done-r2p0"].text
    assert "eases **Goblin**'s injury one step." in said and "step 1" not in said, said


def test_A10_an_undone_round_keeps_a_rest_written_since_its_close() -> None:
    run = play([[HURT], [HURT]])
    from engine_helpers import event_of

    run.feed(event_of(("post", "rest", "gm_sam", 100, "!rest night")))
    run.feed(event_of(("post", "undo", "gm_sam", 101, "!undo")))
    # round 2 re-opened: its wound undone (step 1), the night since then still eases it
    assert _injury(run) == 0
