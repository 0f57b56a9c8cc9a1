"""What rendering a round's summary costs as a thread grows.

    python benchmarks/summary_render.py [ROUNDS]    (default: 1000)

Plays a Distat thread through the engine alone (four players attack, the GM closes; ROUNDS
rounds), keeping the state and the summary of round 10 and of the last round. Then renders
each summary against the state right after its close, many times, and prints the time of one
render, the size of the state's snapshot then, the ratio between the last round and round 10
(the goal: about 1), and round 10's summary rendered against the state after the last round
(the same text: what the thread's length alone costs).
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pbp.campaign.loader import parse_campaign
from pbp.engine.effects import Content, SummaryContent
from pbp.engine.events import PostArrived
from pbp.engine.state import EngineState
from pbp.engine.step import initial_state, step
from pbp.render.environment import make_environment
from pbp.render.replies import Replies
from pbp.rules.dice.seeded import SeededDice
from pbp.rules.dice.source import Dice
from pbp.services.history import encode

sys.path.insert(0, str(Path(__file__).parent))
from replay_scale import CAMPAIGN, PLAYERS

EARLY = 10
REPEAT = 200


def _dice(number: int) -> Dice:
    return SeededDice(f"bench-{number}")


def play(rounds: int) -> dict[int, tuple[EngineState, Content]]:
    """The state and the summary right after the close of round 10 and of the last round."""
    campaign = parse_campaign(CAMPAIGN, path="bench.toml")
    state = initial_state(campaign, bot="pbp_bot")
    start = datetime(2026, 11, 1, tzinfo=UTC)
    minute = 0
    kept: dict[int, tuple[EngineState, Content]] = {}

    def post(post_id: str, author: str, body: str) -> None:
        nonlocal state, minute
        minute += 1
        at = start + timedelta(minutes=minute)
        event = PostArrived(post_id=post_id, author=author, at=at, body=body)
        state, effects = step(state, event, dice=_dice, now=at)
        for effect in effects:
            content = effect.content
            if isinstance(content, SummaryContent) and content.report.number in (EARLY, rounds):
                kept[content.report.number] = (state, content)

    post("g0", "gm", "!group Aria, Bram, Cora, Dax, Goblin")
    for number in range(1, rounds + 1):
        for i, (player, name) in enumerate(PLAYERS):
            verb = "physical" if i % 2 else "mental"
            post(f"p{number}-{i}", player, f"{name} acts. [{verb}: attack Goblin]")
        post(f"g{number}", "gm", "!close")
    return kept


def render_time(replies: Replies, state: EngineState, content: Content) -> float:
    """Seconds one render takes (the best of a few batches)."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        for _ in range(REPEAT):
            replies.render(content, state=state)
        best = min(best, (time.perf_counter() - began) / REPEAT)
    return best


def main(rounds: int) -> None:
    """Play, render, print."""
    began = time.perf_counter()
    kept = play(rounds)
    print(f"played {rounds} rounds in {time.perf_counter() - began:.1f} s")
    replies = Replies(env=make_environment(None), seed_for=lambda n: f"bench-{n}")
    times = {}
    for number in (EARLY, rounds):
        state, content = kept[number]
        times[number] = render_time(replies, state, content)
        print(
            f"summary of round {number:5d}: {times[number] * 1000:7.3f} ms "
            f"(state snapshot {len(encode(state)) / 1024:7.1f} KiB)"
        )
    print(f"ratio round {rounds} / round {EARLY}: {times[rounds] / times[EARLY]:.2f}x")
    # the same summary against the later state: what the thread's length alone costs
    same = render_time(replies, kept[rounds][0], kept[EARLY][1])
    print(
        f"summary of round {EARLY:5d} against the state after round {rounds}: "
        f"{same * 1000:7.3f} ms ({same / times[EARLY]:.2f}x)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
