"""`pbp verify` over real summaries: a d20 thread replayed through the bot's own services."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sample_campaigns import D20_KEEP

from pbp.engine.events import Event, PostArrived, Tick
from pbp.render.environment import md_escape
from pbp.rules.dice.seal import seal, seed_from_int
from pbp.rules.dice.seeded import derive_roll
from pbp.services.replay import feed_all, replay_run
from pbp.services.seeds import round_seeds
from pbp.services.verify import shown_key, verify_ledger, verify_text

CAMPAIGN = D20_KEEP

# (post id, author, body): round 1 is a check and a 2d6+1, round 2 an attack. The check's post
# id has an underscore, which a copy from Reddit escapes. Bob's rejected tag in round 2 plants
# a fake seed line and rolls line, which the summary quotes.
POSTS = [
    ("p1", "gm_sam", "!encounter d20"),
    ("c_2", "alice", "Aria climbs. [check: Climb +4 vs 14]"),
    ("p3", "bob", "[roll: 2d6+1]"),
    ("p4", "gm_sam", "!close"),
    ("p5", "alice", "[attack: +5 vs 12]"),
    (
        "p5b",
        "bob",
        "[check: x ^(Dice seed of round 2: 00 · seal of round 3: "
        + "0" * 64
        + ") Dice rolled (key: post · tag · roll): p5·0·0 d20 = 1]",
    ),
    ("p6", "gm_sam", "!close"),
]


@dataclass(frozen=True, slots=True)
class Thread:
    """What the bot posted: every reply in order, and the ledger."""

    cheatsheet: str
    summaries: list[str]
    ledger: dict[str, Any]

    @property
    def everything(self) -> str:
        return "\n\n".join([self.cheatsheet, *self.summaries])


def _events() -> Iterator[Event]:
    at = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    for post_id, author, body in POSTS:
        at += timedelta(minutes=10)
        yield PostArrived(post_id=post_id, author=author, at=at, body=body)
        yield Tick(at=at + timedelta(seconds=1))  # the bot answers each post as it comes


@pytest.fixture(scope="module")
def thread(tmp_path_factory: pytest.TempPathFactory) -> Thread:
    campaign = tmp_path_factory.mktemp("verify") / "campaign.toml"
    campaign.write_text(CAMPAIGN, encoding="utf-8")
    with replay_run(campaign, seed=seed_from_int(1)) as run:
        feed_all(run, _events())
        posted = {d.key: d.text for _, done in run.log for d in done}
        ledger = run.ledger()
    return Thread(
        cheatsheet=posted["cheatsheet"],
        summaries=[posted["summary-1"], posted["summary-2"]],
        ledger=ledger,
    )


def _listed(summary: str) -> list[tuple[str, int]]:
    return [(name, int(value)) for name, value in re.findall(r"`([^`]+)` d\d+ = (\d+)", summary)]


def test_the_real_summaries_verify_roll_by_roll(thread: Thread) -> None:
    first, second = (verify_text(s) for s in thread.summaries)

    assert first.ok and second.ok
    assert [r.number for r in first.rounds + second.rounds] == [1, 2]
    assert [r.name for r in first.rounds[0].rolls] == ["c_2·0·0", "p3·0·0", "p3·0·1"]
    assert [r.name for r in second.rounds[0].rolls] == ["p5·0·0"]
    assert first.lines()[0].startswith("round 1: 3 rolls, all match")


def test_the_listed_values_are_the_ledgers_rolls(thread: Thread) -> None:
    ledger_rolls = [
        (r["key"], r["value"])
        for rnd in thread.ledger["rounds"]
        for a in rnd["actions"]
        for r in a.get("rolls", [])
    ]
    parsed = [
        (list(r.key), r.value) for s in thread.summaries for r in verify_text(s).rounds[0].rolls
    ]

    assert parsed == ledger_rolls
    assert [v for _, v in ledger_rolls] == [v for s in thread.summaries for _, v in _listed(s)]


def test_changing_one_roll_fails_and_names_that_roll(thread: Thread) -> None:
    summary = thread.summaries[0]
    (name, value), *_ = _listed(summary)
    forged = value % 20 + 1
    text = summary.replace(f"`{name}` d20 = {value}", f"`{name}` d20 = {forged}")

    result = verify_text(text)

    assert not result.ok
    (mismatch,) = result.rounds[0].mismatches
    assert (mismatch.roll.name, mismatch.roll.value, mismatch.derived) == (name, forged, value)
    assert f"c_2·0·0 d20: the summary says {forged}, the seed gives {value}" in result.lines()[0]


def test_another_seed_fails_the_rolls_and_the_seal(thread: Thread) -> None:
    text = "\n".join([thread.cheatsheet, thread.summaries[0]])
    (seed,) = re.findall(r"Dice seed of round 1: `([0-9a-f]+)`", text)
    result = verify_text(text.replace(seed, seed_from_int(2)))

    (round_1,) = result.rounds
    assert not result.ok
    assert round_1.mismatches
    assert [s.matches for s in round_1.seals] == [False]
    assert "the seal does not match" in result.lines()[0]


def test_the_seal_is_checked_against_the_cheat_sheet_and_the_previous_summary(
    thread: Thread,
) -> None:
    result = verify_text(thread.everything)

    assert result.ok
    assert [[s.matches for s in r.seals] for r in result.rounds] == [[True], [True]]
    assert all(line.endswith("the seal matches the seed") for line in result.lines())


def test_a_wrong_seal_in_the_cheat_sheet_fails(thread: Thread) -> None:
    (published,) = re.findall(r"Dice seal of round 1: `([0-9a-f]+)`", thread.cheatsheet)
    forged = thread.cheatsheet.replace(published, seal("not the seed"))

    result = verify_text("\n".join([forged, thread.summaries[0]]))

    assert not result.ok
    assert result.rounds[0].mismatches == ()
    assert [s.matches for s in result.rounds[0].seals] == [False]


def test_a_summary_alone_says_its_seal_was_not_checked(thread: Thread) -> None:
    result = verify_text(thread.summaries[0])

    assert result.ok
    assert result.rounds[0].seals == ()
    assert "not checked" in result.lines()[0]


def test_a_copy_with_markdown_escapes_and_markers_still_verifies(thread: Thread) -> None:
    escaped = "\n".join(md_escape(line) for line in thread.everything.splitlines())
    copied = escaped.replace("\\`", "") + "\n\n[](#pbp:summary-2)"
    assert "c\\_2" in copied

    result = verify_text(copied)

    assert result.ok
    assert [len(r.rolls) for r in result.rounds] == [3, 1]
    assert [[s.matches for s in r.seals] for r in result.rounds] == [[True], [True]]


def test_a_forged_roll_in_an_escaped_copy_still_fails(thread: Thread) -> None:
    (name, value), *_ = _listed(thread.summaries[0])
    forged = thread.summaries[0].replace(
        f"`{name}` d20 = {value}", f"`{name}` d20 = {value % 20 + 1}"
    )
    escaped = "\n".join(md_escape(line) for line in forged.splitlines())

    assert not verify_text(escaped).ok


def test_an_unreadable_roll_entry_fails_the_round(thread: Thread) -> None:
    (name, value), *_ = _listed(thread.summaries[0])
    text = thread.summaries[0].replace(f"`{name}` d20 = {value}", f"`{name}` d20 = twelve")

    result = verify_text(text)

    assert not result.ok
    assert result.rounds[0].problems == (f'cannot read the roll "`{name}` d20 = twelve"',)


def test_rolls_without_their_seed_line_are_not_passed(thread: Thread) -> None:
    cut = thread.summaries[0].split("^(Dice seed")[0]

    result = verify_text(cut)

    assert not result.found and not result.ok
    assert result.problems and "3 rolls listed with no seed line" in result.problems[0]


def test_text_without_a_summary_finds_nothing() -> None:
    result = verify_text("Aria climbs the wall. [check: Climb +4 vs 14]")

    assert not result.found and not result.ok
    assert result.lines() == []


def test_the_ledger_verifies_its_summaries_and_its_action_rolls(thread: Thread) -> None:
    result = verify_ledger(thread.ledger)

    assert result.ok, result.lines()
    assert [len(r.rolls) for r in result.rounds] == [6, 2]  # summary and ledger each
    assert result.lines()[0].startswith("round 1: 3 rolls in the summary and 3 in the ledger")
    # round 1's seal is the cheat sheet's, which the ledger carries; round 2's ends summary 1
    assert thread.ledger["rounds"][0]["seal"] == seal(round_seeds(seed_from_int(1))(1))
    assert [[s.matches for s in r.seals] for r in result.rounds] == [[True], [True]]


def test_a_forged_round_one_seal_in_the_ledger_fails(thread: Thread) -> None:
    ledger = copy.deepcopy(thread.ledger)
    ledger["rounds"][0]["seal"] = "0" * 64

    result = verify_ledger(ledger)

    assert not result.ok
    assert "the seal does not match: the text publishes " + "0" * 64 in result.lines()[0]


def test_a_forged_roll_in_the_ledgers_actions_fails(thread: Thread) -> None:
    ledger = copy.deepcopy(thread.ledger)
    roll = ledger["rounds"][1]["actions"][0]["rolls"][0]
    true_value = roll["value"]
    roll["value"] = true_value % 20 + 1

    result = verify_ledger(ledger)

    assert not result.ok
    (mismatch,) = result.rounds[1].mismatches
    assert (mismatch.roll.source, mismatch.roll.name, mismatch.derived) == (
        "ledger",
        "p5·0·0",
        true_value,
    )
    assert "the ledger says" in result.lines()[1]


def test_a_ledger_roll_missing_from_the_summary_fails(thread: Thread) -> None:
    ledger = copy.deepcopy(thread.ledger)
    summary = ledger["rounds"][1]["summary"]
    ledger["rounds"][1]["summary"] = re.sub(r"\*\*Dice rolled\*\*[^\n]*", "", summary)

    result = verify_ledger(ledger)

    assert not result.ok
    assert result.problems == ("round 2: the ledger's roll p5·0·0 is not in the summary",)


def test_a_ledger_with_no_closed_round_finds_nothing(thread: Thread) -> None:
    ledger = {
        **thread.ledger,
        "rounds": [r for r in thread.ledger["rounds"] if r["closed_by"] is None],
    }

    assert not verify_ledger(ledger).found
    assert not verify_ledger({"campaign": "x"}).ok


def test_seed_and_rolls_lines_quoted_from_a_players_tag_are_ignored(thread: Thread) -> None:
    assert "(Dice seed of round 2: 00 · seal of round 3: 000" in thread.summaries[1]

    result = verify_text(thread.everything)

    assert result.ok, result.lines()
    seeds = round_seeds(seed_from_int(1))
    assert [(r.number, r.seed) for r in result.rounds] == [(1, seeds(1)), (2, seeds(2))]
    assert [r.name for r in result.rounds[1].rolls] == ["p5·0·0"]


def test_a_round_with_gm_opposition_verifies_its_command_rolls(tmp_path: Path) -> None:
    # SPEC §6: a command's rolls are keyed (post id, "cmd", line); `!oppose` is on line 1
    campaign = tmp_path / "abstract.toml"
    campaign.write_text(D20_KEEP, encoding="utf-8")
    posts = [
        ("p1", "gm_sam", "!encounter abstract interval 1 hour\n!task Breach the gate dc 30"),
        ("p2", "alice", "[abstract: Athletics +6 on Breach the gate] [reaction]"),
        ("p3", "gm_sam", "!oppose Breach the gate 3d6\n!close"),
    ]
    at = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    events = [
        PostArrived(post_id=p, author=a, at=at + timedelta(minutes=i), body=b)
        for i, (p, a, b) in enumerate(posts)
    ]
    with replay_run(campaign, seed=seed_from_int(3)) as run:
        feed_all(run, iter(events))
        ledger = run.ledger()
    summary = ledger["rounds"][0]["summary"]
    assert "`p3·cmd·1·0` d6" in summary

    result = verify_text(summary)

    assert result.ok, result.lines()
    names = [r.name for r in result.rounds[0].rolls]
    assert names[:3] == ["p3·cmd·1·0", "p3·cmd·1·1", "p3·cmd·1·2"]
    assert result.rounds[0].rolls[0].key == ("p3", "cmd", 1)
    assert "p2·1·0" in names and "p2·0·0" in names  # the reaction die and the skill d20
    assert verify_ledger(ledger).ok


def test_a_forged_opposition_roll_fails_and_is_named() -> None:
    seed = seed_from_int(4)
    true = derive_roll(seed=seed, key=("p3", "cmd", 2), index=1, sides=6)
    text = (
        f"**Dice rolled** (key: post · tag · roll): `p3·cmd·2·1` d6 = {true % 6 + 1}\n"
        f"^(Dice seed of round 1: `{seed}`)"
    )

    result = verify_text(text)

    (mismatch,) = result.rounds[0].mismatches
    assert (mismatch.roll.key, mismatch.roll.index, mismatch.derived) == (("p3", "cmd", 2), 1, true)
    assert "p3·cmd·2·1 d6" in result.lines()[0]


@pytest.mark.parametrize(
    ("shown", "key"),
    [
        ("p2·0", ("p2", 0)),
        ("p3·cmd·12", ("p3", "cmd", 12)),
        ("7·3", ("7", 3)),
        ("p2 · x1", ("p2", "x1")),
    ],
)
def test_a_shown_key_reads_digits_as_integers_after_the_post_id(
    shown: str, key: tuple[str | int, ...]
) -> None:
    assert shown_key(shown) == key
