"""The example of a problem reply is the writer's own tag with the one fix applied (SPEC §2:
"shows a correct example"): these edit a tag as written, keeping every other word of it, for
the templates (each is a Jinja filter of the same name). They read text only; what the fix
is (the name, the number, the option) the template takes from the problem."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_SEPARATORS = "|,/"
_END = r"(?=\s*(?:[|,/;\]]|$))"  # an option or a name ends at a separator or the bracket


def _phrase(words: str) -> str:
    """A pattern of ``words`` as a whole phrase, any spaces between them, any case."""
    return r"(?<![\w+-])" + r"\s+".join(re.escape(w) for w in words.split()) + r"(?![\w])"


def _body_start(tag: str) -> int:
    """Where the body of a tag starts: after its verb (and colon), or 0 for a command."""
    head = re.match(r"\[\s*[^\s:\]]+\s*:?", tag)
    return head.end() if head else 0


def swapped(tag: str, old: str, new: str, last: bool = False) -> str:
    """``tag`` with ``old`` (a whole phrase, any case) after its verb put as ``new``: the first
    time it appears (``last``: the last time); ``tag`` as it is when ``old`` is not in it."""
    start = _body_start(tag)
    found = list(re.finditer(_phrase(old), tag[start:], flags=re.IGNORECASE)) if old else []
    if not found:
        return tag
    hit = found[-1] if last else found[0]
    return tag[: start + hit.start()] + new + tag[start + hit.end() :]


def without(tag: str, option: str, last: bool = False) -> str:
    """``tag`` without the option that starts with the word ``option`` (``take`` of
    ``take 10``, ``flurp``), its value and the separator before it, wherever it is given
    (``last``: only its last time, the one given twice)."""
    pattern = r"(?:\s*[|,/]\s*|\s+)" + _phrase(option) + r"[^|,/;\]]*?" + _END
    start = _body_start(tag)
    body = tag[start:]
    if last:
        found = list(re.finditer(pattern, body, flags=re.IGNORECASE))
        if found:
            body = body[: found[-1].start()] + body[found[-1].end() :]
        return tag[:start] + body
    return tag[:start] + re.sub(pattern, "", body, flags=re.IGNORECASE)


def with_name(tag: str, after: str, name: str) -> str:
    """``tag`` naming ``name`` after the word ``after`` (a maneuver: ``attack``, ``heal``),
    or first in its body when ``after`` is "" (``[attack]`` → ``[attack: NAME]``); ``tag``
    as it is when ``after`` is not in it."""
    start = _body_start(tag)
    if not after:
        colon = tag[:start].rstrip().endswith(":")
        head = tag[:start].rstrip() + ("" if colon else ":")
        rest = tag[start:].lstrip()
        return f"{head} {name}" + ("" if rest.startswith("]") else " ") + rest
    found = re.search(_phrase(after), tag[start:], flags=re.IGNORECASE)
    if found is None:
        return tag
    at = start + found.end()
    return tag[:at] + " " + name + tag[at:]


def appended(tag: str, words: str) -> str:
    """``tag`` with ``words`` added at the end of its main part, before its first option
    (``[check: Climb +2 | pool]`` with ``vs 15``: ``[check: Climb +2 vs 15 | pool]``)."""
    start = _body_start(tag)
    found = re.search(r"\s*[|\]]", tag[start:])
    at = start + found.start() if found else len(tag)
    return tag[:at] + " " + words + tag[at:]


def with_option(tag: str, option: str) -> str:
    """``tag`` with ``option`` added at its end, after the separator the writer uses (``|``
    when the tag has none)."""
    start = _body_start(tag)
    used = next((c for c in tag[start:] if c in _SEPARATORS), "|")
    glue = ", " if used == "," else f" {used} "
    end = tag.rstrip()
    if end.endswith("]"):
        return end[:-1].rstrip() + glue + option + "]"
    return end + glue + option


def named_in(tag: str, names: Iterable[str]) -> str:
    """The longest of ``names`` the body of ``tag`` names (a whole phrase, any case), or ""."""
    body = tag[_body_start(tag) :]
    found = [n for n in names if n and re.search(_phrase(n), body, flags=re.IGNORECASE)]
    return max(found, key=len, default="")


def closest(written: str, names: Sequence[str], avoid: Iterable[str] = ()) -> str:
    """The first of ``names`` (not one to ``avoid``) that holds ``written`` as one of its
    words ("archer" of "Goblin Archer"), or ""."""
    skip = set(avoid)
    word = written.casefold().strip()
    return next((n for n in names if n not in skip and word in n.casefold().split()), "")


def split_within(tag: str, most: int) -> str:
    """A split tag whose shares (``with N``) add up to at most ``most``: the last share that
    can take the cut alone is lowered (one number changed), else every share is set evenly;
    ``tag`` as it is when the shares fit already or ``most`` is too small for them."""
    start = _body_start(tag)
    shares = list(re.finditer(r"(?<![\w])with\s+(\d+)", tag[start:], flags=re.IGNORECASE))
    values = [int(s.group(1)) for s in shares]
    total = sum(values)
    if total <= most or len(values) > most or not values:
        return tag
    new = list(values)
    for i in reversed(range(len(values))):
        if most - (total - values[i]) >= 1:
            new[i] = most - (total - values[i])
            break
    else:
        even, extra = divmod(most, len(values))
        new = [even + (1 if i < extra else 0) for i in range(len(values))]
    text = tag[start:]
    for share, value in reversed(list(zip(shares, new, strict=True))):
        text = text[: share.start(1)] + str(value) + text[share.end(1) :]
    return tag[:start] + text


_LINKING = re.compile(r"\s*\S*(?:\b[ur]/|://)\S*?(?=[\s|,/;\]]|$)", re.IGNORECASE)


def code(text: str) -> str:
    """``text`` safe inside a code span: no backtick (it would end the span), and no word
    that would mention a user or make a link (SPEC §2: a reply repeating what a user wrote
    cannot), which no tag needs."""
    return _LINKING.sub("", text.replace("`", "'"))


FILTERS = {
    "swapped": swapped,
    "without": without,
    "with_name": with_name,
    "appended": appended,
    "with_option": with_option,
    "named_in": named_in,
    "closest": closest,
    "split_within": split_within,
    "code": code,
}
