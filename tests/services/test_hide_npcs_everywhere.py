"""hide-npcs in every scene (SPEC §4.5): a thread played through the real bot on the local
forum, Distat, d20, an abstract encounter, a skirmish and a battle, each with the Ogre, an NPC of
the campaign file. Every reply the players can read (summaries, problems, acks, the GM's
command replies, ``!status``, ``!sheet``, ``!help``, the cheat sheet with its examples, each
version of an edited reply, and the private messages players get) is searched for each of the
Ogre's numbers in the forms the templates write them: none is there. Each one is in the GMs'
private copies (the summaries in full, the GM's ``!status`` and ``!sheet NAME private``), and,
at an open table, in the thread itself, so the forms searched are the forms written.

The Ogre's numbers are unlike any player character's (the PCs' are checked against them), so a
form that matches is a leak, not a coincidence.

What players read of an NPC, scene by scene, and why:

- Distat: its EAV and EPV in every check (an attack on it shows the attacker's Body and "vs ?",
  a Threatened move the mover's side only), an Identify's target number (it comes from the
  level of the NPC's talent, as secret as its name), its Body and Mind, damage and bonus pool
  in ``!status``, ``!sheet`` and the summary, the points left after a bonus spend, and in a
  refused tag of the GM's its bonus pool, its cap a check or its EAV: hidden. A talent's name is
  shown once a party member identified it. Shown: who hit whom, the damage a hit dealt (a fact
  of the fight), the points spent (the GM's tag says them), and whether it is zeroed or out.
- d20: its modifier and total on every roll (its d20 shows: every roll is listed with its key
  for ``pbp verify``), its Defense and resistance DCs a PC rolls against ("vs a hidden
  Defense"), the DC the GM set for its own check, the margin of an effect and a tie's reason
  (they would give the numbers away), its dice pool and the aid waiting for it. Shown: the PC's
  roll, modifier and total, the PC's Defense or resistance the NPC rolls against, the outcome.
- Abstract: a secret DC, its skill bonus and result (its action dice show: they are rolls, and
  how many there are follows from the result), its banked pips and its chance to finish.
  Shown: the GM's opposition (the sum of its listed dice), what each payment paid.
- Skirmish and battle: its HP and WP (whether it is out, and which pool a hit took, show), its
  action points a turn and left, its Stamina, Intuition and battle initiative (d24 + Intuition;
  a skirmish's initiative is a bare d24, in the dice line anyway), and the difficulty the GM set
  for a course. Shown: turn order, every hit and heal, who is out.

Numbers the GM types in a post (``!task Vault dc 47 secret``, ``!difficulty p9 23``) are in
that post, which players read: the bot never repeats them, and the GM may edit them out (a
command acts from the version first read). An NPC's numbers belong on the campaign file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from service_table import Table

NPC = "Ogre"

CAMPAIGN = """
[campaign]
name = "The Hidden Keep"
gms = ["gm_sam", "gm_kim"]
visibility = "{visibility}"

[[characters]]
name = "Aria"
player = "alice"
body = 3
mind = 2
constitution = 2
wisdom = 1
intuition = 3
hp = 14
wp = 6
stamina = 0
dice_pool = 2
attack = 3
defense = 15
skills = {{ Perception = 2, Stealth = 3, Athletics = 4, Fortitude = 1, Strength = 12 }}

[[characters]]
name = "Bram"
player = "bob"
body = 2
mind = 3
constitution = 1
wisdom = 2
intuition = 1
hp = 12
wp = 8
stamina = 1
attack = 2
defense = 14
skills = {{ Perception = 1, Stealth = 2, Athletics = 3, Will = 2, Strength = 11 }}

[[characters]]
name = "Ogre"
body = 9
mind = 8
bonus_pool = 4
constitution = 17
wisdom = 19
intuition = 29
hp = 41
wp = 37
stamina = 3
dice_pool = 7
attack = 31
defense = 37
skills = {{ Perception = 33, Stealth = 35, Fortitude = 28, Strength = 39, Athletics = 34 }}

[[characters.talents]]
name = "Hex"
stat = "mind"
level = 4
kind = "active"
effect = "attack"
"""

# The forms the templates write a number in, by kind ({n}: the number). The NPC's own rows of
# a table and its !sheet are searched for any digit besides (``_npc_rows``).
DISTAT_VALUE = (
    r"\b(?:Body|Mind) {n} vs\b",
    r"\b(?:Body|Mind) (?:\?|\d+) vs {n}\b",
    r"\bEAV of {n}\b",
    r"\bonly {n} can go\b",
    r"\| *{n}/\d+ *\|",
    r"\| *\d+/{n} *\|",
    r"\| (?:Body|Mind) \|(?: *\d+ *\|)*? *{n} *\|",
)
DAMAGE = (r"\bdamage now {n}\b", r"\| *{n}/\d+ *\|")
BONUS = (
    r"\bBonus pool: {n}\b",
    r"\({n} left\)",
    r"\bhas {n} bonus point",
    r"\bAt most {n} bonus point",
    r"\bbonus pool\b[^.\n]*\bnow {n}\b",
)
TOTAL = (r"\*\*{n}\*\*",)
MODIFIER = (r"[+−] {n} =",)
DEFENSE = (r"\bDefense {n}\b",)
DC = (r"\bDC {n}\b",)
MARGIN = (r"\(by {n}\)",)
POOL = (r"\bdice pool now {n}\b", r"\b{n} of 7\b", r"\bpool is {n}\b")
RESULT = (r"= {n} ÷",)
BANK = (r"\bbank {n}\b", r"Banked pips:\*\*[^\n]*\bOgre {n}\b", r"\bthe bank \({n}\)")
HP_WP = (
    r"^\| Ogre \|(?:[^|\n]*\|)*? *{n} *\|",
    r"\bHP and WP: {n} and\b",
    r"\bHP and WP: \d+ and {n}\b",
)
SCORE = (r"\b(?:Constitution|Wisdom|Intuition|Stamina): {n}\b",)
AP = (
    r"\bOgre has {n} AP\b",
    r"^\| Ogre \|(?:[^|\n]*\|)*? *{n} *\|",  # each by the NPC's name
    r"\| Ogre \(GM\) \|[^\n]*\b{n} AP left\b",
)
INITIATIVE = (r"\(d24 \+ Intuition\):[^\n]*\bOgre {n}\b",)
DIFFICULTY = (r"\bvs {n}\)", r"\bagainst {n}\b")
TALENT = (r"\*Hex\*", r"\bHex \(mind")


@dataclass(frozen=True)
class Fact:
    """One number (or name) of the NPC's, and the forms it would be written in."""

    what: str
    value: int | str
    forms: tuple[str, ...]

    def patterns(self) -> list[re.Pattern[str]]:
        text = re.escape(str(self.value)) if isinstance(self.value, int) else ""
        return [re.compile(form.replace("{n}", text), re.MULTILINE) for form in self.forms]

    def hits(self, texts: Iterable[str]) -> list[str]:
        """Each place a form of it is found, with the words around it."""
        found = []
        for text in texts:
            for pattern in self.patterns():
                for match in pattern.finditer(text):
                    line_start = text.rfind("\n", 0, match.start()) + 1
                    line_end = text.find("\n", match.end())
                    line = text[line_start : line_end if line_end >= 0 else None]
                    found.append(f"{self.what} ({self.value}): {line}")
        return found


@dataclass
class Played:
    """A thread played to its end: the texts players could read and the GMs' own."""

    public: set[str] = field(default_factory=set)  # every reply, each version of it
    players_private: set[str] = field(default_factory=set)
    gms_private: set[str] = field(default_factory=set)
    ledger: dict[str, Any] = field(default_factory=dict)

    @property
    def readable(self) -> set[str]:
        """Everything a player could read."""
        return self.public | self.players_private


class Script:
    """Posts a minute apart, the bot polling after each few, every text kept as it stood."""

    def __init__(self, table: Table) -> None:
        self.table, self.minute, self.played = table, 0.0, Played()

    def post(self, author: str, body: str) -> str:
        self.minute += 1
        return self.table.post(author, body, self.minute)

    def poll(self) -> None:
        self.minute += 1
        self.table.poll(self.minute)
        forum = self.table.forum
        self.played.public |= {r.body for r in self.table.replies()}
        for user in ("alice", "bob"):
            self.played.players_private |= {m.body for m in forum.inbox(user)}
        for gm in ("gm_sam", "gm_kim"):
            self.played.gms_private |= {m.body for m in forum.inbox(gm)}

    def close(self, extra: str = "") -> None:
        self.post("gm_sam", f"{extra}\n!close".strip())
        self.poll()


def play(table: Table) -> Played:
    """Every scene with the Ogre: its own tags and the players' against it, refused tags of
    the GM's that name its numbers, and everyone's ``!status`` and ``!sheet``."""
    s = Script(table)
    # Distat: Body EPV 9 − 1 beside two foes; a bonus spend; a split and a bonus past its cap
    s.post("gm_sam", "The ogre blocks the bridge.\n!group Aria, Bram, Ogre")
    s.poll()
    s.post("alice", "Aria thrusts her spear. [physical: attack Ogre]")
    s.post("bob", "[mental: attack Ogre]\n!status\n!sheet Ogre\n!sheet\n!help")
    s.post("bob", "!sheet Ogre private\n!sheet private")
    s.post("alice", "[phisical: attack Ogre]")  # a typo: a problem reply with its examples
    s.post("gm_sam", "[mental: attack Aria with 6; attack Bram with 7 | as Ogre]")
    s.post("gm_sam", "[physical: attack Aria | as Ogre | bonus 3]")
    s.post(
        "gm_sam",
        "The ogre swings and mutters.\n[physical: attack Aria | as Ogre | bonus 2]\n"
        "[mental: use Hex on Bram | as Ogre]\n!status\n!sheet Ogre private\n!preview",
    )
    s.poll()
    s.close("!damage Ogre body 4")
    # its Identify target number (Hex, level 4, seen once), a Threatened move, Body 5 and EPV 4
    s.post("alice", "[identify: Ogre] [physical: attack Ogre]")
    s.post("bob", "[move: away, mind]")
    s.post("gm_sam", "[physical: attack Bram | as Ogre]\n!sheet Ogre private")
    s.poll()
    s.close()
    # d20: attacks both ways, an opposed check, an effect against its Fortitude, a comparison
    s.post("gm_sam", "!encounter d20")
    s.poll()
    s.post("alice", "[attack: Ogre] [check: Stealth vs Ogre Perception]")
    s.post(
        "bob",
        "[effect: +2 vs Ogre Fortitude] [compare: Strength vs Ogre]\n!status\n!sheet Ogre\n!help",
    )
    s.post("bob", "[check: Stealth vs Ogre Perception | take 20]")
    s.post(
        "gm_sam",
        "[attack: Aria | as Ogre] [check: Perception vs 43 | as Ogre]\n!status\n"
        "!sheet Ogre private",
    )
    s.poll()
    s.close()
    s.post("gm_sam", "[effect: vs Bram Will | as Ogre] [aid: Aria Perception | as Ogre]")
    s.post("alice", "[check: Perception vs 12]")
    s.poll()
    s.close()
    s.post(
        "gm_sam", "[check: Stealth vs 60 | as Ogre | pool]\n[compare: Strength vs Aria | as Ogre]"
    )
    s.poll()
    s.close()
    # an abstract encounter: a secret DC, the Ogre's rolls, bank and a payment it cannot make
    s.post(
        "gm_sam", "!encounter abstract interval 1 hour\n!task Vault dc 47 secret\n!task Wall dc 30"
    )
    s.poll()
    s.post("alice", "[abstract: Athletics on Vault]")
    s.post("alice", "[abstract: Athletics on Tower]")
    s.post("bob", "[abstract: Athletics on Wall]\n!status\n!sheet Ogre")
    s.post(
        "gm_sam",
        "[abstract: Athletics on Vault | as Ogre | bank]\n!oppose Vault 2d6\n"
        "!status\n!sheet Ogre private",
    )
    s.poll()
    s.close()
    s.post("gm_sam", "[abstract: Athletics on Vault | as Ogre | spend all]")
    s.post("alice", "[abstract: Athletics on Wall | spend all]")
    s.poll()
    s.close()
    s.post("gm_sam", "[abstract: Athletics on Wall | as Ogre | spend 500]")
    s.poll()
    s.close()
    # a skirmish, then a battle: pools, action points, initiative, a difficulty the GM set
    s.post("gm_sam", "!encounter skirmish")
    s.poll()
    s.post("alice", "[attack: Ogre]")
    s.post("bob", "[cast: Ogre]\n!status\n!sheet Ogre")
    s.post("gm_sam", "[attack: Aria | as Ogre]\n!status\n!sheet Ogre private")
    s.poll()
    s.close()
    s.post("gm_sam", "!encounter battle")
    s.poll()
    s.post("alice", "[attack: Ogre | damage 2]")
    course = s.post("gm_sam", "[attack: Bram | as Ogre | damage 3]\n!status")
    s.post("gm_sam", f"!difficulty {course} 23")
    s.post("bob", "!status\n!sheet Ogre")
    s.poll()
    s.close("!sheet Ogre private")
    s.post("gm_sam", "!deadline 2h")
    s.poll()
    s.minute += 61  # half time: the players who have not acted are reminded
    s.poll()
    s.post("gm_sam", " ".join(["[attack: Bram | as Ogre]"] * 7))  # one more than its 6 AP
    s.post("bob", "!help")
    s.poll()
    s.close()
    s.post("gm_sam", "!encounter end")
    s.poll()
    s.played.ledger = table.ledger()
    return s.played


def _actions(ledger: dict[str, Any], scene: str) -> Iterator[dict[str, Any]]:
    for rnd in ledger["rounds"]:
        if rnd.get("scene") == scene:
            yield from rnd["actions"]


def _fights(ledger: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for rnd in ledger["rounds"]:
        if rnd.get("fight"):
            yield rnd["fight"]


@dataclass(frozen=True)
class Numbers:
    """The NPC's numbers of a thread, and the PCs' of the same kinds (to hold them apart)."""

    npc: tuple[Fact, ...]
    pcs: dict[str, set[int]]


def numbers(ledger: dict[str, Any]) -> Numbers:
    """The Ogre's numbers: its sheet's, and those the thread's rolls made of them (from the
    ledger, the GM's record)."""
    facts = [
        Fact("its Body", 9, DISTAT_VALUE),
        Fact("its Mind, its Body EPV beside two foes", 8, DISTAT_VALUE),
        Fact("its Body EAV with 2 bonus points", 11, DISTAT_VALUE),
        Fact("its Body after 4 damage", 5, DISTAT_VALUE),
        Fact("its Body EPV after 4 damage beside two foes", 4, DISTAT_VALUE),
        Fact("the target number of identifying its Hex", 7, DISTAT_VALUE),
        Fact("its Body damage", 4, DAMAGE),
        Fact("its bonus pool", 4, BONUS),
        Fact("its bonus pool after spending 2, its cap a check", 2, BONUS),
        Fact("its talent, never identified", "Hex", TALENT),
        Fact("its attack bonus", 31, MODIFIER),
        Fact("its Perception", 33, MODIFIER),
        Fact("its Stealth", 35, MODIFIER),
        Fact("its Strength score", 39, TOTAL),
        Fact("its Defense", 37, DEFENSE),
        Fact("its Fortitude DC", 38, DC),
        Fact("the DC of its Perception check", 43, DC),
        Fact("the DC of its Stealth check", 60, DC),
        Fact("its dice pool", 7, POOL),
        Fact("its Athletics", 34, MODIFIER),
        Fact("the secret DC of the Vault", 47, DC),
        Fact("its Skirmish HP", 17, HP_WP),
        Fact("its Skirmish WP", 19, HP_WP),
        Fact("its battle HP", 41, HP_WP),
        Fact("its battle WP", 37, HP_WP),
        Fact("its Constitution", 17, SCORE),
        Fact("its Wisdom", 19, SCORE),
        Fact("its Intuition", 29, SCORE),
        Fact("its Stamina", 3, SCORE),
        Fact("its AP a turn", 6, AP),
        Fact("the difficulty the GM set its course", 23, DIFFICULTY),
    ]
    pcs: dict[str, set[int]] = {
        "total": set(),
        "result": set(),
        "bank": set(),
        "pool": set(),
        "hp_wp": set(),
    }
    for a in _actions(ledger, "d20"):
        npc = a["actor"] == NPC
        if a["total"] is not None and a["verb"] != "roll":
            (
                facts.append(Fact(f"its total ({a['post']})", a["total"], TOTAL))
                if npc
                else pcs["total"].add(a["total"])
            )
        if a["opponent"] == NPC and a["opponent_total"] is not None:
            facts.append(Fact(f"its opposing total ({a['post']})", a["opponent_total"], TOTAL))
        if npc and a["pool_left"] is not None:
            facts.append(Fact("its dice pool after a retry", a["pool_left"], POOL))
        if (npc or a["target"] == NPC) and a["margin"] is not None and a["outcome"] == "success":
            facts.append(Fact(f"the margin of its effect ({a['post']})", a["margin"], MARGIN))
    for a in _actions(ledger, "abstract"):
        if a["verb"] != "abstract" or a["result"] is None:
            continue
        if a["actor"] == NPC:
            facts.append(Fact(f"its abstract result ({a['post']})", a["result"], RESULT))
            if a["bank"]:
                facts.append(Fact(f"its bank ({a['post']})", a["bank"], BANK))
        else:
            pcs["result"].add(a["result"])
            pcs["bank"].add(a["bank"])
    for fight in _fights(ledger):
        for r in fight["initiative"]:
            if r["name"] == NPC and fight["mode"] == "battle":
                facts.append(Fact("its battle initiative", r["total"], INITIATIVE))
        for name, pools in fight["pools"].items():
            values = {pools["hp"], pools["wp"]}
            if name == NPC:
                facts += [Fact(f"its {fight['mode']} HP or WP", v, HP_WP) for v in values]
            else:
                pcs["hp_wp"] |= values
    for a in _actions(ledger, "battle"):
        if a["actor"] == NPC and a["ap_left"] is not None and a["outcome"] != "void":
            facts.append(Fact("its AP left", int(a["ap_left"]), AP))
    return Numbers(npc=tuple(dict.fromkeys(facts)), pcs=pcs)


def _npc_rows(texts: Iterable[str]) -> list[str]:
    """The NPC's own table rows and ``!sheet`` blocks that hold a digit."""
    found = []
    for text in texts:
        found += [
            line
            for line in text.splitlines()
            if line.startswith(f"| {NPC} |") and re.search(r"\d", line)
        ]
        for block in re.findall(
            rf"^\*\*{NPC}\*\* \(foes\)\n(.*?)(?=^\*\*|\Z)", text, re.MULTILINE | re.DOTALL
        ):
            if re.search(r"\d", block):
                found.append(f"!sheet {NPC}: {block.strip()}")
    return found


@pytest.fixture(scope="module")
def hidden(tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("hidden")
    return play(Table(folder, campaign=CAMPAIGN.format(visibility="hide-npcs"), ack="all"))


@pytest.fixture(scope="module")
def hidden_quiet(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """ack = "none": the problems and the GM's commands go into the summaries."""
    folder = tmp_path_factory.mktemp("quiet")
    return play(Table(folder, campaign=CAMPAIGN.format(visibility="hide-npcs"), ack="none"))


@pytest.fixture(scope="module")
def open_table(tmp_path_factory: pytest.TempPathFactory) -> Played:
    folder = tmp_path_factory.mktemp("open")
    return play(Table(folder, campaign=CAMPAIGN.format(visibility="open"), ack="all"))


def test_the_npcs_numbers_are_unlike_any_pcs(hidden: Played) -> None:
    """The premise of the search: a form that matches can only be the NPC's number (the
    forms that name the NPC, such as its AP, need no such care)."""
    found = numbers(hidden.ledger)
    by_kind: dict[tuple[str, ...], set[int | str]] = {}
    for fact in found.npc:
        by_kind.setdefault(fact.forms, set()).add(fact.value)
    kinds = {TOTAL: "total", RESULT: "result", BANK: "bank", POOL: "pool", HP_WP: "hp_wp"}
    for forms, name in kinds.items():
        assert by_kind.get(forms), f"the thread made no NPC number of kind {name}"
        assert not by_kind[forms] & found.pcs[name], (name, by_kind[forms], found.pcs[name])
    assert len(found.npc) >= 45  # its sheet's numbers and what its rolls made of them


@pytest.mark.parametrize("played", ["hidden", "hidden_quiet"])
def test_no_reply_players_can_read_holds_an_npc_number(
    played: str, request: pytest.FixtureRequest
) -> None:
    thread: Played = request.getfixturevalue(played)
    leaks = [hit for fact in numbers(thread.ledger).npc for hit in fact.hits(thread.readable)]
    leaks += _npc_rows(thread.readable)
    assert leaks == []
    assert len(thread.public) >= 25 and len(thread.players_private) >= 2  # the search saw them


@pytest.mark.parametrize("played", ["hidden", "hidden_quiet"])
def test_the_gms_private_copies_carry_every_npc_number(
    played: str, request: pytest.FixtureRequest
) -> None:
    thread: Played = request.getfixturevalue(played)
    missing = [
        f"{fact.what} ({fact.value})"
        for fact in numbers(thread.ledger).npc
        if not fact.hits(thread.gms_private)
    ]
    assert missing == []
    assert _npc_rows(thread.gms_private)  # its rows and sheets in full


def test_an_open_table_shows_every_npc_number_in_the_thread(open_table: Played) -> None:
    """The same thread at ``visibility = "open"``: each number is found where players read
    it, in the forms searched above (and nobody gets a private copy of a summary)."""
    missing = [
        f"{fact.what} ({fact.value})"
        for fact in numbers(open_table.ledger).npc
        if not fact.hits(open_table.public)
    ]
    assert missing == []
    assert not any("in full" in text for text in open_table.gms_private)


def _line(texts: Iterable[str], *words: str) -> str:
    """The first line (in text order) holding every one of ``words``."""
    return next(
        line
        for text in sorted(texts)
        for line in text.splitlines()
        if all(w in line for w in words)
    )


def test_the_hidden_numbers_read_as_words_players_understand(hidden: Played) -> None:
    public = hidden.public
    # a d20 attack row names whom it attacks
    assert "vs a hidden Defense | failure" in _line(
        public, "| Aria |", "| attacks Ogre |", "Defense"
    )
    assert "vs Defense 15 |" in _line(public, "| Ogre (GM) |", "| attacks Aria |", "Defense")
    assert "+ ? = **?** vs Defense 15" in _line(
        public, "| Ogre (GM) |", "| attacks Aria |", "Defense"
    )
    assert "vs a hidden DC" in _line(public, "| Bram |", "effect roll vs Ogre Fortitude")
    assert "+ ? = **?**" in _line(public, "| Aria |", "check Stealth vs Ogre Perception")
    assert "vs the GM's difficulty" in _line(public, "| Ogre (GM) |", "attacks Bram (d24")
    assert _line(public, "**Banked pips:**").endswith(" · Ogre ?")
    assert "more than Ogre's Mind EAV (`!sheet Ogre private` shows the GM the EAV)" in (
        "\n".join(public)
    )


def test_the_gms_copy_of_a_summary_differs_from_the_thread_where_it_must(hidden: Played) -> None:
    summary = next(t for t in hidden.public if "## Round 3: results" in t)
    copy = next(t for t in hidden.gms_private if "## Round 3: results" in t)
    assert "vs Defense 37" in copy and "vs Defense 37" not in summary
    assert "vs a hidden Defense" in summary and "hidden" not in copy


def test_a_private_sheet_of_someone_elses_character_says_whose_it_is(tmp_path: Path) -> None:
    table = Table(tmp_path, campaign=CAMPAIGN.format(visibility="hide-npcs"))
    table.post("gm_sam", "!sheet Ogre private", 1)
    table.post("bob", "!sheet private\n!sheet Aria private", 2)
    table.poll(3)
    subjects = {(user, m.subject) for user in ("gm_sam", "bob") for m in table.forum.inbox(user)}
    assert subjects == {
        ("gm_sam", "Ogre's sheet in full · keep-1"),
        ("bob", "Your sheet · keep-1"),
        ("bob", "Aria's sheet · keep-1"),
    }
