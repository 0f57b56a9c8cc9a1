"""Posts as players write them, for the benchmarks: a seeded generator of a realistic thread.

    python benchmarks/corpus.py [POSTS] [--thread]     (default: 10 posts, printed)

Each player's post is 200 to 1,500 characters of prose (about 600 on average) in one to four
paragraphs: dialogue in curly quotes (in 94% of the posts), em and en dashes, an ellipsis,
Markdown emphasis (``*word*``, ``**word**``, ``_word_``: in about 40%), now and then a quote of
an earlier post (``>`` lines, that may hold its tag), one to three tags (some with a typo in
the kind or the name: a problem reply), typos in the prose, an "Edit:" line, and an
exclamation mark or two. About one post in eight is edited later (a second version). Every
tenth post is the GM's: the foe acts and the round closes.

``posts(count)`` gives the bodies alone (the tag reader's input), ``events(count)`` a thread
as `pbp replay` reads it (``events.jsonl``), with ``CAMPAIGN`` (four heroes and a goblin).

What this does not stand for: posts in other languages, posts with tables, lists, code or
links (rare at a table and all read through markdown-it), GM posts with many command lines,
or threads with several scenes and encounters.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

CAMPAIGN = """
[campaign]
name = "Realistic"
gms = ["gm"]
visibility = "open"
[[characters]]
name = "Aria"
player = "alice"
body = 60
mind = 30
[[characters]]
name = "Bram"
player = "bob"
body = 30
mind = 40
[[characters]]
name = "Cora"
player = "cara"
body = 20
mind = 60
[[characters]]
name = "Dax"
player = "dan"
body = 40
mind = 40
[[characters]]
name = "Goblin"
body = 400
mind = 400
"""
PLAYERS = (("alice", "Aria"), ("bob", "Bram"), ("cara", "Cora"), ("dan", "Dax"))
FOE = "Goblin"
START = datetime(2026, 11, 1, tzinfo=UTC)

SENTENCES = (
    "The torchlight flickers over the wet stones as the goblin presses forward",
    "{name} ducks under the swing, boots sliding in the mud, and shouts for the others",
    "Breathing hard, {name} raises the shield and steps between the goblin and the wounded",
    "Nobody speaks for a moment; then the goblin starts to chant again",
    "With a grunt, {name} heaves and the old gate groans on its hinges",
    "Rain drums on the broken roof, and somewhere below a door slams shut",
    "{name} wipes the blood from a split lip and grins at the little monster",
    "The smell of smoke is everywhere now, thick and bitter",
    "{name} counts the arrows left in the quiver, then counts them again",
    "A rat skitters across the floor and vanishes into a crack in the wall",
    "The goblin hisses something in its own tongue and bares its yellow teeth",
    "{name} remembers the old sergeant's advice about fighting in the dark",
    "The floorboards creak under every step, loud as a drum in the silence",
    "For a heartbeat the whole room seems to hold its breath",
    "{name} feints left, then drives in hard from the right",
)
SPEECH = (
    "\u201cStay behind me,\u201d {name} says, \u201cand don\u2019t let it reach the door.\u201d",
    "\u201cIs that all you\u2019ve got?\u201d {name} taunts.",
    "\u201cWe\u2019re not leaving without the map\u2026\u201d",
    "\u201cLook out!\u201d",
    "\u2018Typical,\u2019 {name} mutters under a breath.",
    "\u201cI\u2019ve seen worse \u2013 much worse \u2013 in the marshes,\u201d {name} laughs.",
    "\u201cCover me!\u201d {name} yells over the noise.",
)
ASIDES = (
    " \u2014 and then, without warning, ",
    " \u2013 barely \u2013 ",
    "\u2026 ",
    " \u2014 ",
)
EMPHASIS = ("*{w}*", "**{w}**", "_{w}_", "***{w}***")
TAGS = (
    "[physical: attack {foe}]",
    "[mental: attack {foe}]",
    "[physical: attack {foe}, bonus 1]",
    "[p attack {foe}]",
    "[m attack {short}]",
    "[physical: attack {foe} | bonus 2]",
)
TYPO_TAGS = ("[phisical: attack {foe}]", "[mental: atack {foe}]", "[physical: attack Gobiln]")
TYPOS = (("the", "teh"), ("and", "adn"), ("with", "wiht"), ("again", "agian"), ("door", "dor"))
EDIT_NOTES = ("Edit: typo.", "EDIT: forgot the tag, sorry!", "Edit: clarified who I attack.")


def _sentence(pick: random.Random, name: str, *, curly: bool) -> str:
    text = pick.choice(SENTENCES).format(name=name)
    if curly and pick.random() < 0.25:
        cut = text.rfind(" ", 0, len(text) // 2)
        if cut > 0:
            text = text[:cut] + pick.choice(ASIDES) + text[cut + 1 :]
    if pick.random() < 0.15:
        wrong, typo = pick.choice(TYPOS)
        text = text.replace(f" {wrong} ", f" {typo} ", 1)
    return text + pick.choice((".", ".", ".", "!", "\u2026" if curly else "..."))


def _emphasise(pick: random.Random, text: str) -> str:
    words = text.split(" ")
    at = pick.randrange(len(words))
    if words[at].isalpha():
        words[at] = pick.choice(EMPHASIS).format(w=words[at])
    return " ".join(words)


def _paragraph(pick: random.Random, name: str, *, curly: bool, marked: bool) -> str:
    parts = [_sentence(pick, name, curly=curly) for _ in range(pick.randint(1, 4))]
    if curly and pick.random() < 0.7:
        parts.insert(pick.randrange(len(parts) + 1), pick.choice(SPEECH).format(name=name))
    text = " ".join(parts)
    return _emphasise(pick, text) if marked and pick.random() < 0.7 else text


def post_body(pick: random.Random, name: str, earlier: list[str]) -> str:
    """One player's post: prose, its tags, maybe a quote of an earlier post and an edit note."""
    curly = pick.random() < 0.94
    marked = pick.random() < 0.4
    while True:
        paragraphs = [
            _paragraph(pick, name, curly=curly, marked=marked) for _ in range(pick.randint(1, 4))
        ]
        if 200 <= sum(len(p) for p in paragraphs) <= 1300:
            break
    for _ in range(pick.randint(1, 3)):
        tag = pick.choice(TYPO_TAGS if pick.random() < 0.05 else TAGS)
        tag = tag.format(foe=FOE, short=FOE[:3])
        at = pick.randrange(len(paragraphs))
        before = pick.random() < 0.2
        paragraphs[at] = f"{tag} {paragraphs[at]}" if before else f"{paragraphs[at]} {tag}"
    if earlier and pick.random() < 0.15:
        quoted = pick.choice(earlier[-8:]).split("\n\n")[0][:200]
        paragraphs.insert(0, "> " + quoted)
    if pick.random() < 0.05:
        paragraphs.append(pick.choice(EDIT_NOTES))
    return "\n\n".join(paragraphs)[:1500]


def posts(count: int, *, seed: int = 28) -> list[str]:
    """``count`` players' posts (the tag reader's input)."""
    pick = random.Random(seed)
    found: list[str] = []
    for i in range(count):
        found.append(post_body(pick, PLAYERS[i % len(PLAYERS)][1], found))
    return found


CLOSE = "The goblin lashes out at {name}. [physical: attack {name} | as Goblin]\n\n!close"


def events(count: int, *, seed: int = 28) -> list[dict[str, object]]:
    """A thread of ``count`` posts as `pbp replay` reads it: the GM's ``!group``, players'
    posts (some edited later), and every tenth post the GM's close."""
    return list(thread_events(count, seed=seed))


def thread_events(count: int, *, seed: int = 28) -> Iterator[dict[str, object]]:
    """``events``, one at a time (a long thread need not be held whole)."""
    pick = random.Random(seed)
    names = ", ".join([n for _, n in PLAYERS] + [FOE])
    yield {"type": "post", "id": "g0", "author": "gm", "at": START.isoformat(),
           "body": f"!group {names}"}  # fmt: skip
    bodies: list[str] = []  # the last few, that a post may quote
    edits: list[tuple[str, str]] = []
    for i in range(1, count):
        at = (START + timedelta(minutes=i)).isoformat()
        if i % 10 == 0:
            name = PLAYERS[(i // 10) % len(PLAYERS)][1]
            body = CLOSE.format(name=name)
            yield {"type": "post", "id": f"g{i}", "author": "gm", "at": at, "body": body}
            continue
        for post_id, text in edits:  # an edit a minute or so later, before the close
            yield {"type": "edit", "id": post_id, "at": at, "body": text}
        edits = []
        player, name = PLAYERS[i % len(PLAYERS)]
        body = post_body(pick, name, bodies)
        bodies = [*bodies[-7:], body]
        yield {"type": "post", "id": f"p{i}", "author": player, "at": at, "body": body}
        if pick.random() < 0.125:
            edits.append((f"p{i}", body + "\n\nEdit: " + pick.choice(("typo.", "fixed it."))))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 10
    if "--thread" in sys.argv:
        for event in events(count):
            print(json.dumps(event))
        return
    for body in posts(count):
        print(body, end="\n\n----\n\n")


if __name__ == "__main__":
    main()
