"""Markhorspire skirmishes and battles in the round engine (RULES §4, SPEC §2.4): pools,
initiative, courses in turn order, casting, healing, out, a skirmish's end."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine_helpers import BOT, Row, event_of
from scripted_dice import ScriptedDice
from thread_run import ClosedReports

from pbp.campaign.loader import parse_campaign
from pbp.engine.post_contents import ProblemsContent
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state, step
from pbp.rules.dice.seeded import Key, SeededDice
from pbp.rules.dice.source import Dice
from pbp.rulesets.markhor.engine.model import MarkhorEntry, MarkhorReport, MarkhorState
from pbp.tags.model import SceneKind

MARKHOR_TOML = """
[campaign]
name = "Markhor Keep"
gms = ["gm_sam"]
ruleset = "{ruleset}"

[[characters]]
name = "Aria"
player = "alice"
constitution = 2
wisdom = 1
intuition = 3
hp = 20
wp = 15
stamina = 0

[[characters]]
name = "Bram"
player = "bob"
constitution = 1
wisdom = 2
intuition = 1
stamina = 5

[[characters]]
name = "Goblin"
constitution = 1
wisdom = 0
intuition = 0
"""
WOLF = "!npc Wolf body 1 mind 1 constitution 3 wisdom 3"  # a second foe keeps the fight going
# Entities roll initiative in roster order: Aria 0, Bram 1, Goblin 2 (key r<round>·initiative·i)


def initiative(*rolls: int, round_number: int = 1) -> dict[Key, list[int]]:
    return {(f"r{round_number}", "initiative", i): [r] for i, r in enumerate(rolls)}


class Run:
    def __init__(self, ruleset: str, dice: Mapping[Key, Sequence[int]] | None) -> None:
        campaign = parse_campaign(MARKHOR_TOML.format(ruleset=ruleset), path="m.toml")
        self.script = ScriptedDice(dice) if dice is not None else None
        self.state: EngineState = initial_state(campaign, bot=BOT)
        self.reports = ClosedReports()
        self.problems: list[Any] = []

    def dice(self, number: int) -> Dice:
        return self.script if self.script is not None else SeededDice(f"seed-{number}")

    def feed(self, rows: Iterable[Row]) -> Run:
        for row in rows:
            event = event_of(row)
            self.state, effects = step(self.state, event, dice=self.dice, now=event.at)
            self.reports.see(effects)
            self.problems += [
                p for e in effects if isinstance(e.content, ProblemsContent)
                for p in e.content.problems
            ]  # fmt: skip
        return self

    def report(self, number: int = 1) -> MarkhorReport:
        found = self.reports[number].parts.get(MarkhorReport)
        assert found is not None
        return found

    def entries(self, number: int = 1) -> tuple[MarkhorEntry, ...]:
        return self.report(number).entries

    def pools(self, number: int = 1) -> dict[str, tuple[int, int]]:
        return {n: (p.hp, p.wp) for n, p in self.report(number).pools}

    def causes(self) -> list[str]:
        return [getattr(p, "cause", p.code) for p in self.problems]


def fight(
    rounds: Iterable[Iterable[tuple[str, str]]],
    *,
    ruleset: str = "skirmish",
    dice: Mapping[Key, Sequence[int]] | None = None,
    opening: str | None = None,
) -> Run:
    """Rounds of posts ``(author, body)``, each closed by the GM."""
    rows: list[Row] = []
    if opening is not None:
        rows.append(("post", "p0", "gm_sam", 0, opening))
    minute = 1
    for number, posts in enumerate(rounds, start=1):
        for i, (author, body) in enumerate(posts):
            rows.append(("post", f"r{number}p{i}", author, minute, body))
            minute += 1
        rows.append(("post", f"close{number}", "gm_sam", minute, "!close"))
        minute += 1
    return Run(ruleset, dice).feed(rows)


def test_skirmish_pools_come_from_constitution_and_wisdom() -> None:
    # RULES M1: skirmish HP = max(1, Constitution), WP = max(1, Wisdom)
    run = fight([[]], dice=initiative(5, 4, 3))
    assert run.pools() == {"Aria": (2, 1), "Bram": (1, 2), "Goblin": (1, 1)}


def test_npc_scores_from_the_command_give_its_pools() -> None:
    run = fight(
        [[]], opening="!npc Wolf body 2 mind 1 constitution 3 wisdom 2",
        dice=initiative(5, 4, 3, 2),
    )  # fmt: skip
    assert run.pools()["Wolf"] == (3, 2)


def test_damage_takes_hp_then_wp_and_out_when_both_are_gone() -> None:
    # RULES M2: 1 Skirmish HP per hit, then WP once HP is 0; out when both are 0
    hits = [("alice", "[attack: Goblin]")]
    run = fight([hits, hits], dice=initiative(20, 10, 1, round_number=1))
    first, second = run.entries(1)[0].record, run.entries(2)[0].record
    assert first.damage == (("Goblin", "hp", 1),) and first.out == ()
    assert second.damage == (("Goblin", "wp", 1),) and second.out == ("Goblin",)
    assert run.pools(2)["Goblin"] == (0, 0)


def test_initiative_order_decides_who_acts_first() -> None:
    # SPEC §4.4: courses resolve in initiative order, not post order: Goblin 24, Bram 3, Aria 2
    run = fight(
        [[("bob", "[attack: Goblin]"), ("gm_sam", "[attack: Bram | as Goblin]")]],
        dice=initiative(2, 3, 24),
    )
    assert [e.record.actor for e in run.entries()] == ["Goblin", "Bram"]
    assert [e.record.turn for e in run.entries()] == [1, 2]
    assert run.pools()["Bram"] == (0, 2)  # hit before his own turn


def test_out_character_has_its_turn_skipped() -> None:
    # the seed: characters out of combat have their turn skipped
    run = fight(
        [
            [("alice", "[attack: Goblin]")],
            [("alice", "[attack: Goblin]"), ("gm_sam", "[attack: Aria | as Goblin]")],
        ],
        dice=initiative(20, 10, 1),
    )
    goblin = [e.record for e in run.entries(2) if e.record.actor == "Goblin"]
    assert goblin[0].outcome == "void" and goblin[0].reason == "actor_out"


def test_out_character_cannot_act_in_a_later_round() -> None:
    run = fight(
        [[("alice", "[attack: Goblin]")], [("alice", "[attack: Goblin]")],
         [("gm_sam", "[attack: Aria | as Goblin]"), ("alice", "[attack: Goblin]")]],
        dice=initiative(20, 10, 1, 2), opening=WOLF,
    )  # fmt: skip
    assert run.causes().count("actor_out") == 1
    assert run.causes().count("target_out") == 1


def test_ambush_adds_24_to_every_member_of_that_side() -> None:
    # RULES M4: a straight d24, +24 for each member of the side that caught the other unaware
    run = fight([[]], opening="!encounter skirmish ambush party", dice=initiative(1, 2, 24))
    rolls = {r.name: r.total for r in run.report().initiative}
    assert rolls == {"Aria": 25, "Bram": 26, "Goblin": 24}
    assert run.report().order == ("Bram", "Aria", "Goblin")


def test_initiative_ties_are_rerolled_among_the_tied() -> None:
    # RULES M4: ties re-roll among the tied only
    dice = {("r1", "initiative", 0): [9, 3], ("r1", "initiative", 1): [9, 17],
            ("r1", "initiative", 2): [20]}  # fmt: skip
    run = fight([[]], dice=dice)
    assert run.report().order == ("Goblin", "Bram", "Aria")
    tied = {r.name: r.tiebreak for r in run.report().initiative}
    assert tied == {"Aria": (3,), "Bram": (17,), "Goblin": ()}


def test_initiative_is_rolled_once_and_listed_in_the_summary_rolls() -> None:
    run = fight([[], []], dice=initiative(5, 4, 3))  # round 2 has no script: nothing re-rolled
    assert run.report(2).initiative == ()
    assert [r.key for r in run.report(1).initiative_rolls] == [
        ("r1", "initiative", 0),
        ("r1", "initiative", 1),
        ("r1", "initiative", 2),
    ]


def test_cast_costs_one_wp_and_hits_its_target() -> None:
    # RULES M2: a cast costs 1 WP and deals 1 damage
    run = fight([[("bob", "[cast: Goblin]")]], dice=initiative(1, 20, 2))
    (entry,) = run.entries()
    assert entry.record.caster_wp == 1 and entry.record.damage == (("Goblin", "hp", 1),)
    assert run.pools()["Bram"] == (1, 1)


def test_cast_with_no_wp_left_is_refused() -> None:
    # RULES M2: casting is impossible at 0 WP (Aria has WP 1: one cast, then none)
    run = fight(
        [[("alice", "[cast: Goblin]")], [("alice", "[cast: Goblin]")]],
        dice=initiative(20, 1, 2),
    )
    assert run.causes() == ["no_wp_to_cast"]


def test_heal_restores_all_hp_but_not_wp() -> None:
    # RULES M3: healing restores all Skirmish HP, never WP
    run = fight(
        [[("gm_sam", "[attack: Aria | as Goblin]")], [("bob", "[cast: heal Aria]")]],
        dice=initiative(1, 2, 24),
    )
    assert run.pools(1)["Aria"] == (1, 1)
    (entry,) = run.entries(2)
    assert entry.record.healed == 1
    assert run.pools(2)["Aria"] == (2, 1) and run.pools(2)["Bram"] == (1, 1)


def test_a_character_out_cannot_be_healed() -> None:
    # RULES M3: once out of a skirmish, nobody comes back into it
    run = fight(
        [[("alice", "[attack: Goblin]")], [("alice", "[attack: Goblin]")],
         [("gm_sam", "[cast: heal Goblin | as Wolf]")]],
        dice=initiative(20, 10, 1, 2), opening=WOLF,
    )  # fmt: skip
    assert run.causes() == ["target_out"]


def test_one_course_of_action_per_turn_in_a_skirmish() -> None:
    run = fight([[("alice", "[attack: Goblin] [act: shout a warning]")]], dice=initiative(5, 4, 3))
    assert run.causes() == ["one_course_per_turn"]
    assert len(run.entries()) == 1


def test_free_course_succeeds_without_a_roll() -> None:
    # RULES M9: any other course of action succeeds unless the GM calls for a roll
    run = fight([[("alice", "[act: kick the brazier over]")]], dice=initiative(5, 4, 3))
    (entry,) = run.entries()
    assert (entry.record.outcome, entry.record.text, entry.record.dice) == (
        "success",
        "kick the brazier over",
        (),
    )


def test_advantage_and_disadvantage_cancel_and_clamp() -> None:
    # RULES M6: adv, adv, adv, dis → net +2: three d24, keep the highest
    dice = {**initiative(5, 4, 3), ("r1p0", 0): [4, 19, 11]}
    # a course rolls only when the GM sets a difficulty (RULES M9): advantage needs one
    leap = [
        ("alice", "[act: leap the chasm, adv, adv, adv, dis]"),
        ("gm_sam", "!difficulty r1p0 1"),
    ]
    run = fight([leap], dice=dice)
    record = run.entries()[0].record
    assert (record.net_advantage, record.dice, record.kept) == (2, (4, 19, 11), 19)


def test_disadvantage_keeps_the_lowest() -> None:
    dice = {**initiative(5, 4, 3), ("r1p0", 0): [4, 19]}
    run = fight([[("alice", "[attack: Goblin, dis]"), ("gm_sam", "!difficulty r1p0 1")]], dice=dice)
    record = run.entries()[0].record
    assert (record.net_advantage, record.kept) == (-1, 4)


def test_a_won_skirmish_ends_and_the_campaign_scene_follows() -> None:
    # RULES M8: every foe out → the party wins; the skirmish pools are dismissed
    hits = [("alice", "[attack: Goblin]")]
    run = fight([hits, hits], ruleset="skirmish", dice=initiative(20, 10, 1),
                opening="!encounter skirmish")  # fmt: skip
    assert run.report(2).ended == "party_won"
    assert run.state.slot(MarkhorState).pools == ()
    assert "skirmish_won" in next(c.report for c in run.state.closed if c.report.number == 2).notes


def test_a_lost_skirmish_becomes_a_battle_on_the_real_hp_and_wp() -> None:
    # RULES M8: the whole party out → a battle where everyone uses their real HP and WP
    goblin_hits = [("gm_sam", "[attack: Aria | as Goblin]")]
    rounds = [goblin_hits, goblin_hits, goblin_hits]  # Aria: HP 2, WP 1 → out after 3 hits
    run = fight(
        rounds,
        dice={
            **initiative(1, 2, 24),
            **{("r4", "initiative", i): [r] for i, r in enumerate((9, 5, 7))},
        },
    )
    # Bram was never hit, so the party is not all out: the skirmish goes on
    assert run.report(3).ended is None
    run.feed(
        [
            ("post", "x1", "gm_sam", 100, "[attack: Bram | as Goblin]"),
            ("post", "x2", "gm_sam", 101, "!close"),
            ("post", "x3", "gm_sam", 102, "[attack: Bram | as Goblin]"),
            ("post", "x4", "gm_sam", 103, "!close"),
            ("post", "x5", "gm_sam", 104, "[attack: Bram | as Goblin]"),
            ("post", "x6", "gm_sam", 105, "!close"),
        ]
    )
    assert run.report(6).ended == "party_failed"
    assert run.state.scene_kind is SceneKind.BATTLE
    battle = run.state.slot(MarkhorState)
    assert battle.mode == "battle" and battle.pools == ()


def test_battle_initiative_adds_intuition_and_uses_the_real_pools() -> None:
    # RULES M5: d24 + Intuition; a battle works on the sheet's HP and WP (12 when not given)
    run = fight([[("alice", "[attack: Goblin]")]], ruleset="battle", dice=initiative(10, 12, 13))
    totals = {r.name: r.total for r in run.report().initiative}
    assert totals == {"Aria": 13, "Bram": 13, "Goblin": 13}
    # all tie at 13: the higher Intuition goes first (Aria 3, Bram 1, Goblin 0)
    assert run.report().order == ("Aria", "Bram", "Goblin")
    assert run.pools()["Aria"] == (20, 15) and run.pools()["Goblin"] == (11, 12)


def test_battle_action_points_are_stamina_plus_three_at_most_six() -> None:
    # RULES M7 and the Actions page: AP = Stamina + 3, at most 6 on one's own turn
    four = "[attack: Goblin] [attack: Goblin] [attack: Goblin] [attack: Goblin]"
    seven = " ".join(["[attack: Goblin]"] * 7)
    run = fight([[("alice", four), ("bob", seven)]], ruleset="battle", dice=initiative(10, 12, 1))
    assert run.causes() == ["ap_short", "ap_short"]  # Aria: 3 AP; Bram: 5 + 3 capped at 6
    done = [e.record.actor for e in run.entries()]
    assert done.count("Aria") == 3 and done.count("Bram") == 6


def test_ledger_shows_skirmish_pools_from_the_start_and_out_as_status() -> None:
    # SPEC §5: in a skirmish each character adds "skirmish": {"hp", "wp"}
    from engine_helpers import ledger, thread

    campaign = parse_campaign(MARKHOR_TOML.format(ruleset="skirmish"), path="m.toml")
    run = thread([("post", "p1", "alice", 1, "[attack: Goblin]")], campaign=campaign)
    before = ledger(run)["characters"]
    assert before["Goblin"]["skirmish"] == {"hp": 1, "wp": 1, "out": False}
    for minute, body in ((2, "!close"), (3, None), (4, "!close")):
        if body is None:
            run.feed(event_of(("post", "p3", "alice", minute, "[attack: Goblin]")))
        else:
            run.feed(event_of(("post", f"c{minute}", "gm_sam", minute, body)))
    data = ledger(run)
    attack = data["rounds"][0]["actions"][0]
    assert (attack["verb"], attack["target"], attack["outcome"]) == ("attack", "Goblin", "success")
    assert attack["damage"] == [{"character": "Goblin", "stat": "hp", "amount": 1}]
    assert data["rounds"][1]["fight"]["ended"] == "party_won"
    assert "party wins the skirmish" in data["rounds"][1]["summary"]


def test_battle_reaction_uses_unspent_ap_during_the_target_turn() -> None:
    # RULES M7: unspent AP pay for a reaction during another's turn, after one's first turn.
    # Order: Aria 24+3, Goblin 20, Bram 1+1. Aria spends 1 of her 3 AP on her turn and reacts
    # in Goblin's turn with another; her reaction resolves after Goblin's own attack.
    run = fight(
        [[("alice", "[attack: Goblin] [attack: Goblin | react]"),
          ("gm_sam", "[attack: Aria | as Goblin]")]],
        ruleset="battle", dice=initiative(24, 1, 20),
    )  # fmt: skip
    records = [e.record for e in run.entries()]
    assert [(r.actor, r.turn, r.reaction) for r in records] == [
        ("Aria", 1, False),
        ("Goblin", 2, False),
        ("Aria", 2, True),
    ]
    assert [r.ap_left for r in records if r.actor == "Aria"] == [2.0, 1.0]
    assert run.pools()["Goblin"] == (10, 12)


def test_no_reaction_before_ones_first_turn() -> None:
    # RULES M7: Bram acts last, so a reaction in Goblin's earlier turn comes before his first
    run = fight(
        [[("bob", "[attack: Goblin | react]"), ("gm_sam", "[attack: Bram | as Goblin]")]],
        ruleset="battle", dice=initiative(24, 1, 20),
    )  # fmt: skip
    bram = [e.record for e in run.entries() if e.record.actor == "Bram"]
    assert (bram[0].outcome, bram[0].reason) == ("void", "reaction_before_first_turn")


def test_one_reaction_per_turn_and_none_in_a_skirmish() -> None:
    battle = fight(
        [[("alice", "[attack: Goblin | react] [cast: Goblin | react]")]],
        ruleset="battle", dice=initiative(24, 1, 20),
    )  # fmt: skip
    assert battle.causes() == ["one_reaction_per_turn"]
    skirmish = fight([[("alice", "[attack: Goblin | react]")]], dice=initiative(5, 4, 3))
    assert skirmish.causes() == ["reaction_in_skirmish"]


def test_gm_called_roll_gates_the_course_against_the_difficulty() -> None:
    # RULES M9: courses succeed unrolled unless the GM calls for a roll (a d24, kept per M6)
    dice = {**initiative(20, 10, 1), ("r1p0", 0): [9], ("r1p1", 0): [15]}
    run = fight(
        [[("alice", "[attack: Goblin]"), ("bob", "[act: pick the lock]"),
          ("gm_sam", "!difficulty r1p0 12\n!difficulty r1p1 12")]],
        dice=dice,
    )  # fmt: skip
    aria, bram = (e.record for e in run.entries())
    assert (aria.kept, aria.difficulty, aria.outcome, aria.damage) == (9, 12, "failure", ())
    assert (bram.kept, bram.difficulty, bram.outcome) == (15, 12, "success")
    assert run.pools()["Goblin"] == (1, 1)
    # made: the next round's courses are unrolled again
    assert run.state.slot(MarkhorState).calls == ()


def test_difficulty_needs_a_fight_and_a_post_of_the_open_round() -> None:
    run = fight([[("gm_sam", "!difficulty p99 12")]], dice=initiative(5, 4, 3))
    assert run.causes() == ["no_such_post"]
    distat = Run("distat", None).feed([
        ("post", "p1", "alice", 1, "[pass]"),
        ("post", "p2", "gm_sam", 2, "!difficulty p1 12"),
    ])  # fmt: skip
    assert distat.causes() == ["not_fight"]


def test_skirmish_pool_formula_is_a_campaign_setting() -> None:
    # RULES M1: "Make the formula a per-campaign setting": max(minimum, per_point × score)
    text = MARKHOR_TOML.format(ruleset="skirmish").replace(
        'ruleset = "skirmish"',
        'ruleset = "skirmish"\n\n[campaign.options]\nskirmish_minimum = 2\nskirmish_per_point = 3',
    )
    campaign = parse_campaign(text, path="m.toml")
    run = Run("skirmish", initiative(5, 4, 3))
    run.state = initial_state(campaign, bot=BOT)
    run.feed([("post", "c1", "gm_sam", 1, "!close")])
    # Aria: Constitution 2, Wisdom 1 → 6, 3; Goblin: 1, 0 → 3, 2 (the minimum)
    assert run.pools()["Aria"] == (6, 3) and run.pools()["Goblin"] == (3, 2)


def test_a_battle_campaign_comes_back_to_a_battle_after_the_encounter_ends() -> None:
    # the campaign's own scene follows an ended encounter, with a fight of its own kind
    run = fight([[]], ruleset="battle", dice=initiative(5, 4, 3))
    run.feed([("post", "e1", "gm_sam", 50, "!encounter end")])
    assert run.state.scene_kind is SceneKind.BATTLE
    assert run.state.slot(MarkhorState).mode == "battle"


def test_gm_corrects_hp_and_wp_of_a_fight_before_the_turns() -> None:
    # SPEC §2.5 corrections, in a fight: `!damage NAME hp N` / `!heal NAME wp N` act before the
    # turns and keep each pool between 0 and full
    run = fight(
        [[("gm_sam", "!damage Goblin hp 5\n!heal Bram wp 1\n!damage Aria wp 1"),
          ("alice", "[attack: Goblin]")]],
        dice=initiative(20, 10, 1),
    )  # fmt: skip
    report = next(c.report for c in run.state.closed)
    assert [(c.character, c.what, c.stat, c.amount) for c in report.corrections] == [
        ("Goblin", "damage", "hp", 5),
        ("Bram", "heal", "wp", 1),
        ("Aria", "damage", "wp", 1),
    ]
    # Goblin: HP 1 → 0 by the GM, then Aria's hit takes its WP: out
    assert run.pools() == {"Aria": (2, 0), "Bram": (1, 2), "Goblin": (0, 0)}
    assert run.entries()[0].record.out == ("Goblin",)


def test_hp_corrections_outside_a_fight_are_refused_at_the_close() -> None:
    run = Run("distat", None).feed([
        ("post", "p1", "gm_sam", 1, "!damage Aria hp 1"),
        ("post", "p2", "gm_sam", 2, "!close"),
    ])  # fmt: skip
    report = next(c.report for c in run.state.closed)
    assert [(r.problem.code, getattr(r.problem, "cause", "")) for r in report.rejected] == [
        ("markhor_rule", "not_fight")
    ]


# -- RULES §6: the self-heal with the last WP, battle damage and healing from the tag ---------


def test_a_caster_put_out_by_paying_for_its_own_heal_is_out_and_the_heal_is_void() -> None:
    # RULES §6 (M2, M3): the cost is paid first; Goblin at 0 HP and 1 WP is out by paying, so
    # its heal of itself does not land, and the WP stays spent. The round still closes.
    run = fight(
        [[("alice", "[attack: Goblin]")], [("gm_sam", "[cast: heal Goblin | as Goblin]")]],
        dice=initiative(20, 10, 1, 2), opening=WOLF,
    )  # fmt: skip
    assert run.pools(1)["Goblin"] == (0, 1)
    (entry,) = run.entries(2)
    record = entry.record
    assert (record.outcome, record.reason, record.caster_wp) == ("void", "put_out_by_cost", 0)
    assert record.out == ("Goblin",) and record.healed is None
    assert run.pools(2)["Goblin"] == (0, 0)
    assert run.state.slot(MarkhorState).is_out("Goblin")


def test_a_caster_paying_its_last_wp_still_heals_someone_else() -> None:
    run = fight(
        [[("alice", "[attack: Goblin]"), ("gm_sam", "[attack: Wolf | as Goblin]")],
         [("gm_sam", "[cast: heal Wolf | as Goblin]")]],
        dice=initiative(20, 10, 5, 2), opening=WOLF,
    )  # fmt: skip
    (entry,) = run.entries(2)
    assert (entry.record.outcome, entry.record.healed) == ("success", 1)
    assert entry.record.out == ("Goblin",)  # out after paying; its heal of Wolf lands
    assert run.pools(2)["Wolf"] == (3, 3)


def test_a_battle_attack_does_the_damage_its_tag_gives_and_one_without() -> None:
    # RULES §6: in a battle the tag gives an attack's damage, a number or dice (1 if absent)
    dice = {**initiative(20, 10, 1), ("r1p1", 0): [4, 6]}
    run = fight(
        [[("alice", "[attack: Goblin | damage 3] [attack: Goblin]"),
          ("bob", "[attack: Goblin | damage 2d6]")]],
        ruleset="battle", dice=dice,
    )  # fmt: skip
    three, one, rolled = (e.record for e in run.entries())
    assert (three.damage, three.amount, three.amount_rolled) == ((("Goblin", "hp", 3),), "3", 3)
    assert (one.damage, one.amount) == ((("Goblin", "hp", 1),), None)
    assert (rolled.amount, rolled.amount_rolled) == ("2d6", 10)
    assert [(r.sides, r.value) for r in rolled.rolls] == [(6, 4), (6, 6)]
    assert run.pools()["Goblin"] == (0, 10)  # 12 HP: 3 + 1 + 8 of the 10, the rest from WP
    assert rolled.damage == (("Goblin", "hp", 8), ("Goblin", "wp", 2))


def test_a_battle_heal_restores_the_amount_its_tag_gives_never_past_full() -> None:
    # RULES §6: a heal's amount comes from the tag (1 if absent); M3's full heal is the
    # skirmish's. Aria has 20 HP.
    run = fight(
        [[("gm_sam", "[attack: Aria | as Goblin, damage 6]")],
         [("bob", "[cast: heal Aria]")],
         [("bob", "[cast: heal Aria | amount 4]")],
         [("bob", "[cast: heal Aria | amount 9]")]],
        ruleset="battle", dice={**initiative(1, 2, 24), **initiative(1, 2, 24, round_number=2)},
    )  # fmt: skip
    assert run.pools(1)["Aria"][0] == 14
    assert [run.entries(n)[0].record.healed for n in (2, 3, 4)] == [1, 4, 1]
    assert run.pools(4)["Aria"] == (20, 15)
    assert run.pools(4)["Bram"][1] == 12 - 3  # each heal cost 1 WP


def test_damage_and_amount_are_refused_in_a_skirmish() -> None:
    run = fight(
        [[("alice", "[attack: Goblin | damage 2]"), ("bob", "[cast: heal Aria | amount 3]")]],
        dice=initiative(5, 4, 3),
    )  # fmt: skip
    assert run.causes() == ["amount_in_skirmish", "amount_in_skirmish"]
    assert run.entries() == ()


def test_a_difficulty_can_name_the_character_whose_course_rolls() -> None:
    # RULES M9: the GM posts every NPC turn in one post; `!difficulty POST NAME N` calls a roll
    # for that character's course only
    dice = {**initiative(20, 10, 5, 1), ("r1p0", 1): [3]}
    run = fight(
        [[("gm_sam", "[attack: Aria | as Goblin] [attack: Bram | as Wolf]"),
          ("gm_sam", "!difficulty r1p0 Wolf 12")]],
        dice=dice, opening=WOLF,
    )  # fmt: skip
    goblin, wolf = sorted((e.record for e in run.entries()), key=lambda r: r.actor)
    assert (goblin.outcome, goblin.difficulty, goblin.dice) == ("success", None, ())
    assert (wolf.outcome, wolf.difficulty, wolf.kept) == ("failure", 12, 3)


def test_a_difficulty_naming_a_character_without_a_course_there_is_refused() -> None:
    run = fight(
        [[("gm_sam", "[attack: Aria | as Goblin]"), ("gm_sam", "!difficulty r1p0 Bram 12")]],
        dice=initiative(20, 10, 5),
    )  # fmt: skip
    assert run.causes() == ["no_such_course"]


def test_a_heal_says_what_it_changed_not_what_was_asked() -> None:
    # issue: `!heal NAME wp 2` when 1 was missing said 2; the summary says what changed
    run = fight(
        [[("gm_sam", "!damage Goblin hp 5\n!heal Bram wp 1\n!damage Aria wp 1"),
          ("alice", "[attack: Goblin]")]],
        dice=initiative(20, 10, 1),
    )  # fmt: skip
    report = next(c.report for c in run.state.closed)
    assert [(c.character, c.amount, c.changed) for c in report.corrections] == [
        ("Goblin", 5, 1),  # HP 1 of 1: only 1 to take
        ("Bram", 1, 0),  # WP already full
        ("Aria", 1, 1),
    ]
