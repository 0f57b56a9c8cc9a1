"""Each post version is parsed once: the parse made when it arrives (or is edited) is reused by
the check after its set-up commands and by the check at the close (issue 16)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine_helpers import BOT, Row, event_of, make_campaign
from thread_run import actions_of

from pbp.engine.effects import PrivateReply, SummaryContent
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state, step
from pbp.rules.dice.seeded import SeededDice
from pbp.rules.dice.source import Dice
from pbp.tags import ParsedPost, ReadContext, parse_post


class CountingParse:
    """The real tag reader, counting how often each text is parsed."""

    def __init__(self) -> None:
        self.texts: Counter[str] = Counter()

    def __call__(self, text: str, /, *, context: ReadContext) -> ParsedPost:
        self.texts[text] += 1
        return parse_post(text, context=context)


def _dice(number: int) -> Dice:
    return SeededDice(f"seed-{number}")


def _run(rows: Iterable[Row], parse: CountingParse) -> tuple[EngineState, list[SummaryContent]]:
    state = initial_state(make_campaign(), bot=BOT)
    summaries: list[SummaryContent] = []
    for row in rows:
        event = event_of(row)
        state, effects = step(state, event, dice=_dice, now=event.at, parse=parse)
        summaries += [
            e.content
            for e in effects  # the thread's, not each GM's private copy
            if isinstance(e.content, SummaryContent) and not isinstance(e, PrivateReply)
        ]
    return state, summaries


def test_every_version_is_parsed_once_through_arrival_edit_and_close() -> None:
    parse = CountingParse()
    rows: list[Row] = [
        ("post", "g0", "gm_sam", 0, "!group Aria, Bram, Cora, Dax, Goblin, Ogre"),
        ("post", "p1", "alice", 1, "Aria swings. [physical: attack Goblin]"),
        ("post", "p2", "bob", 2, "Bram thinks. [mental: attack Goblin]"),
        ("post", "p3", "cara", 3, "Cora fumbles. [phisical: attack Goblin]"),
        ("edit", "p3", None, 4, "Cora swings. [physical: attack Goblin]"),
        ("post", "g1", "gm_sam", 5, "[physical: attack Aria | as Ogre]\n!close"),
        ("post", "p4", "alice", 6, "Aria again. [physical: attack Ogre]"),
        ("post", "g2", "gm_sam", 7, "!close"),
    ]
    _state, summaries = _run(rows, parse)
    assert [s.report.number for s in summaries] == [1, 2]
    assert len(actions_of(summaries[0].report)) >= 3  # the posts were read and acted
    versions = [row[4] for row in rows]
    assert parse.texts == Counter(versions)
    assert set(parse.texts.values()) == {1}


def test_a_post_is_parsed_again_at_the_close_only_when_the_names_changed() -> None:
    """A tag naming an NPC that a later set-up command brings in reads as it does now (SPEC
    §4.3): that needs the text read against the new names, once."""
    parse = CountingParse()
    early = "Aria swings. [physical: attack Wolf]"
    rows: list[Row] = [
        ("post", "p1", "alice", 1, early),
        ("post", "g1", "gm_sam", 2, "!npc Wolf body 2 mind 1\n!group Aria, Wolf"),
        ("post", "g2", "gm_sam", 3, "!close"),
    ]
    _state, [summary] = _run(rows, parse)
    assert [a.record.target for a in actions_of(summary.report)] == ["Wolf"]
    assert parse.texts[early] == 2
    assert parse.texts["!close"] == 1
