"""Reading parsed TOML with errors that name the file, the key, its line and what was expected.

Campaign files and the bot configuration share this: ``Reader`` wraps one parsed document and
its text, and every getter either returns a value of the promised type or raises
``ConfigError``. Pure: the caller reads the file.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import field
from typing import Any, NoReturn, TypeVar

from pbp.errors import ConfigError, ConfigErrors
from pbp.values import frozen_value

KeyPath = tuple[str | int, ...]
Table = Mapping[str, Any]
T = TypeVar("T", bound=str)
V = TypeVar("V")

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_BARE_OR_QUOTED = r"""(?:[A-Za-z0-9_\-]+|"[^"]*"|'[^']*')"""
_KEY = re.compile(rf"^\s*({_BARE_OR_QUOTED}(?:\s*\.\s*{_BARE_OR_QUOTED})*)\s*=")
_NAME_KEYS = ("name", "id")  # a table's own name, shown beside its index in error messages
# The largest number a sheet or an option takes unless it says otherwise: beyond any real
# character, and small enough that no sum or table of the rules grows out of hand.
LARGEST_NUMBER = 999


def parse_toml(text: str, *, path: str) -> dict[str, Any]:
    """``text`` parsed as TOML; a syntax error becomes a ConfigError with tomllib's line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_POSITION.search(message)
        where = f"line {found.group(1)}, column {found.group(2)}" if found else "TOML syntax"
        problem = _TOML_POSITION.sub("", message) if found else message
        raise ConfigError(path=path, where=where, problem=problem, expected="valid TOML") from None
    except RecursionError:  # tomllib recurses into each nested array and inline table
        raise ConfigError(
            path=path,
            where=_first_line(text, _DEEP),
            problem="arrays or inline tables nested too deep to read",
            expected="a few levels of nesting at most",
        ) from None
    except ValueError:  # an integer past Python's limit for reading one (4,300 digits)
        raise ConfigError(
            path=path,
            where=_first_line(text, _LONG_NUMBER),
            problem="a number thousands of digits long",
            expected="a number of a few digits",
        ) from None


_DEEP = re.compile(r"(?:[\[{][^\[\]{}\n]{0,40}){50}")  # 50 openings on one line
_LONG_NUMBER = re.compile(r"[0-9_]{1000}")


def _first_line(text: str, pattern: re.Pattern[str]) -> str:
    """``line N`` of the first match of ``pattern``, or ``TOML syntax`` when none matches."""
    found = pattern.search(text)
    return f"line {text.count(chr(10), 0, found.start()) + 1}" if found else "TOML syntax"


def _split_dotted(names: str) -> list[str]:
    """``a."b.c".d`` -> ["a", "b.c", "d"] (quoted parts keep their dots)."""
    parts = re.findall(r'"[^"]*"|\'[^\']*\'|[^.\s]+', names)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


class LineIndex:
    """Where each table header and key of a TOML text is (1-based lines).

    Built by a light scan of the text rather than by the parser (tomllib keeps no positions);
    it understands headers, arrays of tables and dotted keys, which is what config files use.
    """

    def __init__(self, text: str) -> None:
        self._lines: dict[KeyPath, int] = {}
        self._counts: dict[KeyPath, int] = {}
        current: KeyPath = ()
        for number, line in self._code_lines(text):
            header = _HEADER.match(line)
            if header:
                current = self._enter(_split_dotted(header.group(2)), header.group(1) == "[[")
                self._lines.setdefault(current, number)
                continue
            key = _KEY.match(line)
            if key:
                self._lines.setdefault(current + tuple(_split_dotted(key.group(1))), number)

    @staticmethod
    def _code_lines(text: str) -> Iterator[tuple[int, str]]:
        """Numbered lines, skipping the insides of multi-line strings."""
        inside: str | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            if inside is None:
                yield number, line
            for quote in ('"""', "'''"):
                if line.count(quote) % 2 == 1 and inside in (None, quote):
                    inside = quote if inside is None else None

    def _enter(self, names: list[str], is_array: bool) -> KeyPath:
        resolved: KeyPath = ()
        for name in names[:-1]:
            resolved += (name,)
            if resolved in self._counts:  # a parent array of tables: its latest element
                resolved += (self._counts[resolved] - 1,)
        resolved += (names[-1],)
        if is_array:
            self._counts[resolved] = self._counts.get(resolved, 0) + 1
            resolved += (self._counts[resolved] - 1,)
        return resolved

    def line_of(self, at: KeyPath) -> int | None:
        """The line of ``at``, or of the nearest enclosing table that has one."""
        for end in range(len(at), 0, -1):
            if at[:end] in self._lines:
                return self._lines[at[:end]]
        return None


def _label(node: object) -> str:
    """`` "Goblin" `` for a table with a name, so a message says which element it means."""
    if isinstance(node, dict):
        for key in _NAME_KEYS:
            if isinstance(node.get(key), str):
                return f' "{shortened(node[key])}" '
    return ""


def shortened(text: str, *, longest: int = 60) -> str:
    """``text`` as a message quotes it: whole when short, else its start and its length (a
    name of 100,000 characters must not make every line about it 100,000 long), and each
    invisible or control character written as its escape (``A\\u200bria``), so the message
    shows what is there."""
    if len(text) > longest:
        text = f"{text[: longest - 20]}…({len(text):,} characters)"
    if text.isascii() and text.isprintable():
        return text
    return _UNSEEN.sub(lambda found: _escape(found.group()), text)


# control, format (zero-width, direction marks), private-use, line and paragraph separators
_UNSEEN = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\ufeff\ufff9-\ufffb\ue000-\uf8ff]"
)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _line_order(error: ConfigError) -> int:
    found = re.search(r"\(line (\d+)\)$", error.where)
    return int(found.group(1)) if found else 0


def _digits(number: int) -> str:
    """``number``, or how many digits it has when it would fill the line."""
    text = str(number)
    return text if len(text) <= 20 else f"a number of {len(text.lstrip('-'))} digits"


def did_you_mean(word: str, choices: Collection[str]) -> str:
    """`` (did you mean "x"?)`` when a choice is close to ``word``, else ""."""
    close = difflib.get_close_matches(word.casefold(), list(choices), n=1, cutoff=0.6)
    return f' (did you mean "{close[0]}"?)' if close else ""


def type_name(value: object) -> str:
    """How a TOML value's type reads in a message."""
    match value:
        case bool():
            return "true/false"
        case int():
            return "a whole number"
        case float():
            return "a decimal number"
        case str():
            return "a string"
        case list():
            return "a list"
        case dict():
            return "a table"
        case _:
            return "a date or time"


@frozen_value(kw_only=False)
class Reader:
    """One parsed document, its text's line index and its path, for checked reads.

    A getter raises at its first mistake; ``attempt`` runs one part of the file, keeps its
    mistake and goes on, so ``finish`` can raise every mistake of the file at once.
    ``warnings`` holds what is allowed but probably not meant.
    """

    path: str
    doc: Table
    lines: LineIndex
    mistakes: list[ConfigError] = field(default_factory=list)
    warnings: list[ConfigError] = field(default_factory=list)

    @classmethod
    def of(cls, text: str, *, path: str) -> Reader:
        """Parse ``text`` (TOML) and index its lines."""
        return cls(path, parse_toml(text, path=path), LineIndex(text))

    def where(self, at: KeyPath) -> str:
        """``characters[3] "Goblin" .talents[0] "Hex" .level (line 14)``."""
        pieces: list[str] = []
        node: Any = self.doc
        for part in at:
            if isinstance(part, int):
                node = node[part] if isinstance(node, list) and part < len(node) else None
                pieces.append(f"[{part}]" + _label(node))
            else:
                node = node.get(part) if isinstance(node, dict) else None
                pieces.append(f".{shortened(part)}" if pieces else shortened(part))
        text = "".join(pieces).strip() or "top level"
        line = self.lines.line_of(at)
        return f"{text} (line {line})" if line is not None else text

    def fail(self, at: KeyPath, problem: str, expected: str = "") -> NoReturn:
        """Raise the ConfigError for ``at``."""
        raise ConfigError(path=self.path, where=self.where(at), problem=problem, expected=expected)

    def report(self, at: KeyPath, problem: str, expected: str = "") -> None:
        """Keep a mistake at ``at`` and go on reading."""
        self._keep(ConfigError(path=self.path, where=self.where(at), problem=problem,
                               expected=expected))  # fmt: skip

    def warn(self, at: KeyPath, problem: str, expected: str = "") -> None:
        """Keep a warning at ``at``: the file loads, but this is probably not what was meant."""
        self.warnings.append(ConfigError(path=self.path, where=self.where(at), problem=problem,
                                         expected=expected))  # fmt: skip

    def attempt(self, read: Callable[[], V], fallback: V) -> V:
        """``read()``, or ``fallback`` with its mistake kept when it raises one."""
        try:
            return read()
        except ConfigError as error:
            for each in error.every:
                self._keep(each)
            return fallback

    def _keep(self, error: ConfigError) -> None:
        if all(str(error) != str(kept) for kept in self.mistakes):
            self.mistakes.append(error)

    def finish(self) -> None:
        """Raise the mistakes kept so far: the one, or all of them in file order."""
        if len(self.mistakes) == 1:
            raise self.mistakes[0]
        if self.mistakes:
            raise ConfigErrors(tuple(sorted(self.mistakes, key=_line_order)))

    def check_keys(self, table: Table, at: KeyPath, *, allowed: Collection[str]) -> None:
        """Every key of ``table`` is one of ``allowed``; each other key is a mistake kept."""
        for key in table:
            if key not in allowed:
                self.report(
                    (*at, key),
                    f'unknown key "{shortened(key)}"{did_you_mean(key, allowed)}',
                    "one of " + ", ".join(allowed),
                )

    def value(self, table: Table, at: KeyPath, key: str, *, kind: type, expected: str) -> Any:
        """``table[key]`` if present (None if not), checked to be of ``kind``."""
        if key not in table:
            return None
        found = table[key]
        # bool is an int in Python, but `body = true` is a mistake in a sheet
        if not isinstance(found, kind) or (isinstance(found, bool) and kind is not bool):
            self.fail((*at, key), f"{key} is {type_name(found)}", expected)
        return found

    def required(self, table: Table, at: KeyPath, key: str, *, expected: str) -> None:
        """Raise unless ``key`` is in ``table``."""
        if key not in table:
            self.fail(at, f'missing "{key}"', f"{key} = {expected}")

    def text(
        self, table: Table, at: KeyPath, key: str, *, default: str | None = None
    ) -> str | None:
        """A string value, or ``default``."""
        found = self.value(table, at, key, kind=str, expected=f'{key} = "…" (a string)')
        return default if found is None else str(found)

    def whole(
        self,
        table: Table,
        at: KeyPath,
        key: str,
        *,
        default: int | None = None,
        minimum: int | None = None,
        maximum: int = LARGEST_NUMBER,
    ) -> int | None:
        """A whole-number value from ``minimum`` (default ``-maximum``) to ``maximum``, or
        ``default``."""
        low = -maximum if minimum is None else minimum
        expected = (
            "a whole number"
            + (f" ≥ {minimum}" if minimum is not None else "")
            + (f" and ≤ {maximum}" if maximum != LARGEST_NUMBER else "")
        )
        found = self.value(table, at, key, kind=int, expected=expected)
        if found is None:
            return default
        if minimum is not None and found < minimum:
            self.fail((*at, key), f"{key} = {found} is below {minimum}", expected)
        if not low <= found <= maximum:  # a slip of the keyboard (60000 for 6), or hostile
            self.fail(
                (*at, key),
                f"{key} = {_digits(found)} is beyond {low if found < 0 else maximum}",
                f"a whole number from {low} to {maximum}",
            )
        return int(found)

    def flag(self, table: Table, at: KeyPath, key: str, *, default: bool) -> bool:
        """A true/false value, or ``default``."""
        found = self.value(table, at, key, kind=bool, expected="true or false")
        return default if found is None else bool(found)

    def choice(
        self, table: Table, at: KeyPath, key: str, *, choices: tuple[T, ...], default: T | None
    ) -> T | None:
        """A string value that must be one of ``choices`` (compared as written), or ``default``."""
        expected = " | ".join(f'"{c}"' for c in choices)
        found = self.value(table, at, key, kind=str, expected=expected)
        if found is None:
            return default
        for option in choices:
            if option == found:
                return option
        self.fail(
            (*at, key),
            f'{key} = "{shortened(found)}" is not known{did_you_mean(found, choices)}',
            expected,
        )

    def strings(self, table: Table, at: KeyPath, key: str) -> tuple[str, ...] | None:
        """A list of strings, or None when absent."""
        found = self.value(table, at, key, kind=list, expected=f'{key} = ["…", …] (strings)')
        if found is None:
            return None
        for index, item in enumerate(found):
            if not isinstance(item, str):
                self.fail((*at, key, index), f"{key}[{index}] is {type_name(item)}", "a string")
        return tuple(found)

    def table(self, table: Table, at: KeyPath, key: str) -> Table | None:
        """A sub-table, or None when absent."""
        found = self.value(table, at, key, kind=dict, expected=f"a [{key}] table")
        return None if found is None else dict(found)

    def tables(self, table: Table, at: KeyPath, key: str) -> list[Table]:
        """An array of tables (``[[key]]``), empty when absent."""
        found = self.value(table, at, key, kind=list, expected=f"[[{key}]] tables")
        for index, item in enumerate(found or ()):
            if not isinstance(item, dict):
                self.fail(
                    (*at, key, index), f"{key}[{index}] is {type_name(item)}", f"a [[{key}]] table"
                )
        return list(found or ())
