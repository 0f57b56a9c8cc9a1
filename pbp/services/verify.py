"""`pbp verify`: recompute a round's dice from its public summary (SPEC §6).

Pure functions over text and ledger data: no I/O. What they read:

- the seed line a summary ends with, ``^(Dice seed of round N: `SEED` · seal of round N+1:
  `SEAL`)``, and the cheat sheet's ``^(Dice seal of round 1: `SEAL`)``;
- the rolls line, ``**Dice rolled** (key: post · tag · roll): `p2·0·0` d20 = 13; …``. A shown
  key ``POST·PART…·INDEX`` is the engine's key ``(POST, PART, …)`` and the roll ``INDEX``
  within it. The post id is a string; each part after it is an integer when it is all digits
  and a string otherwise: a tag's ``p2·0·0`` is ``("p2", 0)``, roll 0 (``pbp.engine.rounds``
  keys a tag's roller by post id and tag index), a command's ``p5·cmd·3·1`` is
  ``("p5", "cmd", 3)``, roll 1 (``!oppose`` on line 3). The value must equal
  ``derive_roll(seed=SEED, key=KEY, index=INDEX, sides=SIDES)``.

A rolls line belongs to the first seed line after it (the summary's own, at its end). The text
may come from a copy of the forum: Markdown backslash escapes (``\\_``, ``\\(``), the invisible
``[](#pbp:…)`` markers and missing backticks are tolerated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pbp.rules.dice.seal import seal
from pbp.rules.dice.seeded import MAX_SIDES, Key, derive_roll
from pbp.values import frozen_value

Source = Literal["summary", "ledger"]

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation
_MARKER = re.compile(r"\[\]\(#pbp:[^)\s]*\)")
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
# Each line is read only where it starts a line, as the bot writes it: user text in a summary
# is folded to one line and escaped, so a player cannot plant a seed, seal or rolls line.
_START = r"^[ \t]*(?:\^\(|\()?[ \t]*"
_HEX64 = r"[0-9A-Fa-f]{64}"
# A number as a summary writes one (a round, a roll's index, sides, value): at most 40 digits,
# so a pasted line of thousands cannot reach int()'s 4,300-digit limit; a longer one is
# simply not read (a roll the seed cannot give, or no seed line).
_NUMBER = r"\d{1,40}(?!\d)"
_SEED = re.compile(
    _START + r"Dice seed of round\s+(?P<round>" + _NUMBER + r")\s*:\s*`?\s*(?P<seed>[0-9A-Za-z]+)"
    r"\s*`?(?:\s*·\s*seal of round\s+(?P<next>"
    + _NUMBER
    + r")\s*:\s*`?\s*(?P<seal>"
    + _HEX64
    + r")\b)?",
    re.IGNORECASE | re.MULTILINE,
)
_SEAL = re.compile(  # the cheat sheet's (a summary's is part of its seed line)
    _START
    + r"Dice seal of round\s+(?P<round>"
    + _NUMBER
    + r")\s*:\s*`?\s*(?P<seal>"
    + _HEX64
    + r")\b",
    re.IGNORECASE | re.MULTILINE,
)
_ROLLS = re.compile(
    r"^[ \t]*\**Dice rolled\**[ \t]*(?:\([^)\n]*\))?[ \t]*:(?P<entries>[^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
# ``POST·PART…·INDEX``: the post, at least one part of the key after it, the roll's index
_ENTRY = re.compile(
    r"`?\s*(?P<key>[^`\s;·]+(?:\s*·\s*[^`\s;·]+)+?)\s*·\s*(?P<index>" + _NUMBER + r")\s*`?"
    r"\s*d(?P<sides>" + _NUMBER + r")\s*=\s*(?P<value>" + _NUMBER + r")",
    re.IGNORECASE,
)


@frozen_value
class ListedRoll:
    """One roll as the summary (or the ledger) states it."""

    key: Key
    index: int
    sides: int
    value: int
    source: Source = "summary"

    @property
    def name(self) -> str:
        """The roll as the summary shows it: ``p2·0·0``."""
        return "·".join(str(part) for part in (*self.key, self.index))


@frozen_value
class RollMismatch:
    """A stated roll that the seed does not give."""

    roll: ListedRoll
    derived: int

    def describe(self) -> str:
        return (
            f"{self.roll.name} d{self.roll.sides}: the {self.roll.source} says "
            f"{self.roll.value}, the seed gives {self.derived}"
        )


@frozen_value
class SealCheck:
    """A seal the text published for the round, against the SHA-256 of the revealed seed."""

    published: str
    actual: str

    @property
    def matches(self) -> bool:
        return self.published.lower() == self.actual


@frozen_value
class SummaryDice:
    """What one summary states about its round's dice."""

    number: int
    seed: str
    rolls: tuple[ListedRoll, ...]
    unreadable: tuple[str, ...] = ()  # entries of the rolls line that are not `key` dN = V


@frozen_value
class RoundCheck:
    """The verdict on one round."""

    number: int
    seed: str
    rolls: tuple[ListedRoll, ...]
    mismatches: tuple[RollMismatch, ...]
    seals: tuple[SealCheck, ...]
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.problems and all(s.matches for s in self.seals)

    def describe(self) -> str:
        """One line: ``round 1: 3 rolls, all match; the seal matches the seed``."""
        head = f"round {self.number}: {self._counted()}"
        if self.mismatches:
            verb = "does" if len(self.mismatches) == 1 else "do"
            head += f", {len(self.mismatches)} {verb} not match: " + "; ".join(
                m.describe() for m in self.mismatches
            )
        elif self.rolls:
            head += ", it matches" if len(self.rolls) == 1 else ", all match"
        tail = list(self.problems)
        for check in self.seals:
            tail.append(
                "the seal matches the seed"
                if check.matches
                else f"the seal does not match: the text publishes {check.published}, "
                f"the seed's SHA-256 is {check.actual}"
            )
        if not self.seals:
            tail.append("its seal is not in the text (not checked)")
        return "; ".join([head, *tail])

    def _counted(self) -> str:
        summary = sum(1 for r in self.rolls if r.source == "summary")
        ledger = len(self.rolls) - summary
        text = _rolls(summary) if summary else "no rolls"
        return f"{text} in the summary and {ledger} in the ledger" if ledger else text


@frozen_value
class Verification:
    """Every round found in the input, and what could not be tied to a seed."""

    rounds: tuple[RoundCheck, ...]
    problems: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        """Whether the input held at least one round with its seed."""
        return bool(self.rounds)

    @property
    def ok(self) -> bool:
        return self.found and not self.problems and all(r.ok for r in self.rounds)

    def lines(self) -> list[str]:
        """The report: one line per round, then the problems of the input as a whole."""
        return [r.describe() for r in self.rounds] + list(self.problems)


def clean(text: str) -> str:
    """``text`` without Markdown backslash escapes, pbp's invisible markers and zero-width
    characters (a copy from the forum may have any of them)."""
    text = _INVISIBLE.sub("", text).replace("\u00a0", " ")
    return _MARKER.sub("", _ESCAPE.sub(r"\1", text))


def parse_rolls(entries: str) -> tuple[tuple[ListedRoll, ...], tuple[str, ...]]:
    """The rolls of a rolls line (the text after its ``:``), and the entries it cannot read."""
    rolls: list[ListedRoll] = []
    unreadable: list[str] = []
    for chunk in entries.split(";"):
        chunk = chunk.strip()
        if not chunk:
            continue
        match = _ENTRY.fullmatch(chunk)
        if match is None:
            unreadable.append(chunk)
            continue
        rolls.append(
            ListedRoll(
                key=shown_key(match["key"]),
                index=int(match["index"]),
                sides=int(match["sides"]),
                value=int(match["value"]),
            )
        )
    return tuple(rolls), tuple(unreadable)


def shown_key(text: str) -> Key:
    """The engine's key of a key as the summary shows it (``p5·cmd·3`` is ``("p5", "cmd", 3)``):
    the post id stays a string, a later part is an integer when it is all digits."""
    post, *rest = (part.strip() for part in text.split("·"))
    return (post, *(int(part) if re.fullmatch(_NUMBER, part, re.ASCII) else part for part in rest))


def parse_summaries(text: str) -> tuple[tuple[SummaryDice, ...], int]:
    """Each round's seed with the rolls listed before it, and how many rolls no seed follows."""
    text = clean(text)
    found: list[SummaryDice] = []
    rolls: list[ListedRoll] = []
    unreadable: list[str] = []
    events = sorted(
        [(m.start(), "rolls", m) for m in _ROLLS.finditer(text)]
        + [(m.start(), "seed", m) for m in _SEED.finditer(text)],
        key=lambda e: e[0],
    )
    for _, kind, match in events:
        if kind == "rolls":
            more, bad = parse_rolls(match["entries"])
            rolls.extend(more)
            unreadable.extend(bad)
        else:
            found.append(
                SummaryDice(
                    number=int(match["round"]),
                    seed=match["seed"],
                    rolls=tuple(rolls),
                    unreadable=tuple(unreadable),
                )
            )
            rolls, unreadable = [], []
    return tuple(found), len(rolls) + len(unreadable)


def published_seals(text: str) -> dict[int, tuple[str, ...]]:
    """Every seal the text publishes, by round: a cheat sheet's ``Dice seal of round N``, and
    the ``seal of round N+1`` at the end of a summary's seed line."""
    text = clean(text)
    seals: dict[int, list[str]] = {}
    for match in _SEAL.finditer(text):
        seals.setdefault(int(match["round"]), []).append(match["seal"].lower())
    for match in _SEED.finditer(text):
        if match["seal"] is not None:
            seals.setdefault(int(match["next"]), []).append(match["seal"].lower())
    return {n: tuple(dict.fromkeys(s)) for n, s in seals.items()}


def check_roll(seed: str, roll: ListedRoll) -> RollMismatch | None:
    """None when ``seed`` gives the stated value, else the mismatch."""
    derived = derive_roll(seed=seed, key=roll.key, index=roll.index, sides=roll.sides)
    return None if derived == roll.value else RollMismatch(roll=roll, derived=derived)


def check_round(
    summary: SummaryDice,
    seals: Mapping[int, Sequence[str]],
    extra: Sequence[ListedRoll] = (),
) -> RoundCheck:
    """Recompute every roll of ``summary`` (and the ``extra`` ones, e.g. the ledger's) from its
    seed, and check the seed against every seal the input published for the round."""
    problems = [f'cannot read the roll "{u}"' for u in summary.unreadable]
    rolls = (*summary.rolls, *extra)
    mismatches: list[RollMismatch] = []
    for roll in rolls:
        if not 1 <= roll.sides <= MAX_SIDES or roll.index < 0:
            problems.append(f"{roll.name} d{roll.sides}: no such roll")
            continue
        mismatch = check_roll(summary.seed, roll)
        if mismatch is not None:
            mismatches.append(mismatch)
    actual = seal(summary.seed)
    return RoundCheck(
        number=summary.number,
        seed=summary.seed,
        rolls=rolls,
        mismatches=tuple(mismatches),
        seals=tuple(SealCheck(published=s, actual=actual) for s in seals.get(summary.number, ())),
        problems=tuple(problems),
    )


def verify_text(text: str) -> Verification:
    """Verify every round summary in ``text`` (one or more, with any cheat sheet)."""
    summaries, stray = parse_summaries(text)
    seals = published_seals(text)
    problems: tuple[str, ...] = ()
    if stray:
        problems = (
            f"{_rolls(stray)} listed with no seed line after them: not checked "
            "(copy the whole summary, down to its seed line)",
        )
    return Verification(rounds=tuple(check_round(s, seals) for s in summaries), problems=problems)


def verify_ledger(ledger: Mapping[str, Any]) -> Verification:
    """Verify an exported ledger (``pbp export --json``, ``pbp replay --json``): each closed
    round's summary as :func:`verify_text` does, and the ``rolls`` its actions carry; a round's
    ``seal`` (round 1's, from the cheat sheet) is checked like a seal a summary publishes."""
    rounds = ledger.get("rounds")
    if not isinstance(rounds, list):
        return Verification(rounds=(), problems=("the ledger has no list of rounds",))
    texts = [
        r["summary"] for r in rounds if isinstance(r, dict) and isinstance(r.get("summary"), str)
    ]
    seals = published_seals("\n".join(texts))
    for rnd in rounds:  # a round's own ``seal``: round 1's, as its cheat sheet published it
        if isinstance(rnd, dict) and isinstance(rnd.get("seal"), str):
            number = rnd.get("number")
            if isinstance(number, int) and re.fullmatch(_HEX64, rnd["seal"]):
                seals[number] = (*seals.get(number, ()), rnd["seal"].lower())
    checks: list[RoundCheck] = []
    problems: list[str] = []
    for rnd in rounds:
        if not isinstance(rnd, dict):
            problems.append("a round of the ledger is not an object")
            continue
        number = rnd.get("number")
        # the actions' rolls and the round's own (RULES §7: every die of the summary)
        extra, bad = _ledger_rolls([*_listed(rnd.get("actions")), {"rolls": rnd.get("rolls")}])
        problems.extend(f"round {number}: {b}" for b in bad)
        summary_text = rnd.get("summary")
        if rnd.get("closed_by") is None or not isinstance(summary_text, str):
            if extra:
                problems.append(
                    f"round {number}: {_rolls(len(extra))} in the ledger but no "
                    "summary with the seed: not checked"
                )
            continue
        summaries, stray = parse_summaries(summary_text)
        own = [s for s in summaries if s.number == number]
        if not own:
            problems.append(f"round {number}: its summary has no seed line: not checked")
            continue
        if stray:
            problems.append(f"round {number}: {_rolls(stray)} after the seed line: not checked")
        listed = {(r.key, r.index) for r in own[0].rolls}
        problems.extend(
            f"round {number}: the ledger's roll {r.name} is not in the summary"
            for r in extra
            if (r.key, r.index) not in listed
        )
        checks.append(check_round(own[0], seals, extra))
    return Verification(rounds=tuple(checks), problems=tuple(problems))


def _listed(actions: object) -> list[object]:
    return actions if isinstance(actions, list) else []


def _ledger_rolls(actions: object) -> tuple[list[ListedRoll], list[str]]:
    rolls: list[ListedRoll] = []
    bad: list[str] = []
    for action in actions if isinstance(actions, list) else []:
        listed = action.get("rolls") if isinstance(action, dict) else None
        for item in listed if isinstance(listed, list) else []:
            roll = _ledger_roll(item)
            if roll is None:
                bad.append(f"cannot read the ledger's roll {item!r}")
            else:
                rolls.append(roll)
    return rolls, bad


def _ledger_roll(item: object) -> ListedRoll | None:
    if not isinstance(item, dict):
        return None
    key, index, sides, value = (item.get(k) for k in ("key", "index", "sides", "value"))
    if not isinstance(key, list) or not key or not all(_key_part(p) for p in key):
        return None
    if not all(_integer(n) for n in (index, sides, value)):
        return None
    assert isinstance(index, int) and isinstance(sides, int) and isinstance(value, int)
    return ListedRoll(key=tuple(key), index=index, sides=sides, value=value, source="ledger")


def _key_part(part: object) -> bool:
    return isinstance(part, str) or _integer(part)


def _integer(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool)


def _rolls(n: int) -> str:
    return f"{n} roll" if n == 1 else f"{n} rolls"
