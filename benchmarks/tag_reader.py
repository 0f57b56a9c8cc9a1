"""How many typical posts a second the tag reader reads.

    python benchmarks/tag_reader.py [POSTS]    (default: 2000)

A typical post is a paragraph of prose with one to three tags naming characters of a roster
of 12 heroes and 12 orcs (some by a prefix, some with options), now and then a second
paragraph or a GM's command line. Prints posts a second (of CPU time, the best of five passes)
for three readers:

- the full path: every post through markdown-it, every bracket read afresh (the reference the
  fast path is tested against);
- cold: the reader with its memory of bracket readings emptied before each post, so no
  bracket of the post was read before (a new thread's first posts, or a thread whose tags
  never repeat); emptying it costs next to nothing, and the figure is the one the goal is for;
- warm: the reader as it runs (a thread's tags repeat: the same attack, edits, each post read
  more than once), with the memory kept from post to post.

Goal (issue "Speed"): at least 20,000 typical posts a second, cold.
Against an older checkout without the full path (PYTHONPATH=that checkout), only the readers
that checkout has are timed.
"""

from __future__ import annotations

import inspect
import random
import sys
import time
from collections.abc import Callable

from pbp.tags import ReadContext, parse_post

HEROES = ("Aria", "Bram", "Cora", "Dax", "Eve", "Finn", "Gwen", "Hal", "Ivo", "Juno", "Kai", "Lena")
ORCS = (*(f"Orc {n}" for n in range(1, 11)), "Orc Chief", "Orc Shaman")
CONTEXT = ReadContext(
    characters=HEROES + ORCS, features=("Gate", "Wall"), talents=("Iron Grip", "Mind Spike")
)
PROSE = [
    "The torchlight flickers over the wet stones as the orcs press forward.",
    "She ducks under the swing, boots sliding in the mud, and shouts for the others.",
    "Breathing hard, he raises the shield and steps between the chief and the wounded.",
    "Nobody speaks for a moment; then the shaman starts to chant again.",
    "With a grunt, the warrior heaves and the old gate groans on its hinges.",
]
TAGS = [
    "[physical: attack {orc}]",
    "[mental: attack {orc}]",
    "[move: {orc}]",
    "[move: Gate]",
    "[p attack {orc} | bonus 2]",
    "[physical: restrain {orc}]",
    "[mental: attack {short}]",
    "[physical: attack {orc}, bonus 1]",
    "[identify: {orc}]",
    "[pass]",
    "[physical: feat vs 4]",
    "[m attack {orc}]",
]


def typical_posts(count: int, *, seed: int = 16) -> list[str]:
    """``count`` posts of a paragraph with 1-3 tags, some with a second paragraph."""
    pick = random.Random(seed)
    posts = []
    for _ in range(count):
        orc = pick.choice(ORCS)
        sentences = pick.sample(PROSE, 2)
        tags = [pick.choice(TAGS).format(orc=orc, short=orc[:5]) for _ in range(pick.randint(1, 3))]
        text = f"{pick.choice(HEROES)} moves. {sentences[0]} {' '.join(tags)} {sentences[1]}"
        if pick.random() < 0.2:
            text += f"\n\n{pick.choice(PROSE)}"
        if pick.random() < 0.05:
            text = f"!group {pick.choice(HEROES)}, {orc}\n{text}"
        posts.append(text)
    return posts


def rate(posts: list[str], *, cold: bool = False, **options: bool) -> float:
    """Posts a second of CPU time, the best of five passes over ``posts``.

    CPU time, not wall time: on a busy machine the wait for a core is not the reader's cost.
    ``cold`` empties the memory of bracket readings before each post.
    """
    forget = _forgetting() if cold else _nothing
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for text in posts:
            forget()
            parse_post(text, context=CONTEXT, **options)
        best = min(best, time.process_time() - start)
    return len(posts) / best


def _nothing() -> None:
    pass


def _forgetting() -> Callable[[], None]:
    """What empties the reader's memory of bracket readings (nothing when this pbp has none)."""
    from pbp.tags import reader

    forget: Callable[[], None] = getattr(reader, "forget_readings", _nothing)
    return forget


GOAL = 20_000  # typical posts a second, cold


def main() -> None:
    posts = typical_posts(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
    tags = sum(len(parse_post(text, context=CONTEXT).tags) for text in posts)
    print(f"{len(posts)} typical posts, {tags} tags read; posts a second of CPU time:")
    full = rate(posts, full=True) if "full" in inspect.signature(parse_post).parameters else 0.0
    cold = rate(posts, cold=True)
    warm = rate(posts)
    goal = "goal met" if cold >= GOAL else f"below the goal of {GOAL:,}"
    if full:
        print(f"  full path (markdown-it, nothing kept)    {full:9,.0f}")
    print(f"  cold (no bracket of a post read before)  {cold:9,.0f}{_ratio(cold, full)}  {goal}")
    print(f"  warm (as a thread runs, tags repeat)     {warm:9,.0f}{_ratio(warm, full)}")


def _ratio(rate: float, full: float) -> str:
    return f"  ({rate / full:.1f}x the full path)" if full else ""


if __name__ == "__main__":
    main()
