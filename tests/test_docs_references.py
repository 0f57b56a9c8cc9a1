"""Every ``RULES <id>`` and ``SPEC §<n>`` cited in the code points inside the repository.

The code, the tests, the templates, the benchmarks and the examples are searched.

Comments and docstrings cite the rule readings (``# RULES D7``, ``RULES §6``, ``RULES M2, M3
and §6``) and the product contract (``SPEC §4.3``). Those entries are defined in
``docs/rules.md`` and ``docs/spec.md``: a heading whose first word is the id (``#### D7.``,
``### 6.1``, ``## 4.``) or a bold label (``**D5b**``). A citation may run over the end of a
comment line (``… (RULES`` then ``# §6)``); a list of ids after one ``RULES`` is read id by id,
and ``M1–M9`` names every id between.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCANNED = ("pbp", "tests", "templates", "benchmarks", "examples")  # wherever code cites them
SUFFIXES = {".py", ".j2", ".toml", ".md"}

_RULE_ID = r"(?:§\d+(?:\.\d+)*|[ADEM]\d+[a-z]?)"
_SEP = r"(?:\s*(?:,|/|–|-|\band\b|\bor\b|\()\s*|\s+)"
RULES_CITATION = re.compile(rf"\bRULES\s+(?P<ids>{_RULE_ID}(?:{_SEP}{_RULE_ID})*)")
_SECTION = r"§\s?\d+(?:\.\d+)*"
SPEC_CITATION = re.compile(rf"\bSPEC\s+(?P<ids>{_SECTION}(?:\s*(?:,|/|and)\s*{_SECTION})*)")
_ONE_ID = re.compile(_RULE_ID)
_ONE_SECTION = re.compile(r"§\s?(\d+(?:\.\d+)*)")
_RANGE = re.compile(r"([ADEM])(\d+)\s*[–-]\s*\1(\d+)")

_HEADING_ID = re.compile(r"^#{2,6}\s+§?(?P<id>[ADEM]\d+[a-z]?|\d+(?:\.\d+)*)\b")
_BOLD_ID = re.compile(r"\*\*(?P<id>[ADEM]\d+[a-z]?)\b")


def defined(doc: Path) -> set[str]:
    """The ids a doc defines: heading ids and bold labels (sections without their ``§``)."""
    ids: set[str] = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        for pattern in (_HEADING_ID, _BOLD_ID):
            match = pattern.match(line) if pattern is _HEADING_ID else pattern.search(line)
            if match:
                ids.add(match["id"].rstrip("."))
    return ids


def _joined_lines(path: Path) -> list[tuple[int, str]]:
    """Each line with, when it ends in ``RULES`` or ``SPEC``, the next line's text appended."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for index, line in enumerate(lines):
        text = line
        if re.search(r"\b(RULES|SPEC)\s*$", line) and index + 1 < len(lines):
            text = line + " " + lines[index + 1].strip().lstrip("#").strip()
        out.append((index + 1, text))
    return out


def _rule_ids(cited: str) -> list[str]:
    ids = [token.lstrip("§") for token in _ONE_ID.findall(cited)]
    for letter, first, last in _RANGE.findall(cited):
        ids.extend(f"{letter}{n}" for n in range(int(first), int(last) + 1))
    return ids


def citations() -> list[tuple[str, str, str]]:
    """Every citation outside the docs: (``file:line``, ``RULES`` or ``SPEC``, id)."""
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in SUFFIXES or path == Path(__file__).resolve():
                continue
            where = path.relative_to(ROOT).as_posix()
            for number, text in _joined_lines(path):
                for match in RULES_CITATION.finditer(text):
                    found.extend((f"{where}:{number}", "RULES", i) for i in _rule_ids(match["ids"]))
                for match in SPEC_CITATION.finditer(text):
                    sections = _ONE_SECTION.findall(match["ids"])
                    found.extend((f"{where}:{number}", "SPEC", s) for s in sections)
    return found


def test_the_code_cites_the_docs() -> None:
    found = citations()
    assert len({(where, kind) for where, kind, _ in found}) > 400  # the extraction still works
    assert {kind for _, kind, _ in found} == {"RULES", "SPEC"}


def test_every_cited_rule_reading_is_in_docs_rules_md() -> None:
    known = defined(DOCS / "rules.md")
    missing = [
        f"{where}: RULES {i}"
        for where, kind, i in citations()
        if kind == "RULES" and i not in known
    ]
    assert not missing, "not defined in docs/rules.md:\n" + "\n".join(missing)


def test_every_cited_spec_section_is_in_docs_spec_md() -> None:
    known = defined(DOCS / "spec.md")
    missing = [
        f"{where}: SPEC §{s}" for where, kind, s in citations() if kind == "SPEC" and s not in known
    ]
    assert not missing, "not defined in docs/spec.md:\n" + "\n".join(missing)


def test_every_rule_reading_of_the_doc_has_one_definition() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    headings = [m["id"] for line in text.splitlines() if (m := _HEADING_ID.match(line))]
    doubles = sorted({i for i in headings if headings.count(i) > 1})
    assert not doubles, f"defined twice in docs/rules.md: {doubles}"


def _slug(heading: str) -> str:
    """The anchor a Markdown viewer gives a heading (GitHub's rule: lower case, punctuation
    dropped, spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_links_between_the_docs_resolve() -> None:
    docs = [*sorted(DOCS.glob("*.md")), ROOT / "README.md"]
    anchors = {
        doc.resolve(): {
            _slug(line.lstrip("#"))
            for line in doc.read_text("utf-8").splitlines()
            if line.startswith("#")
        }
        for doc in docs
    }
    broken = []
    for doc in docs:
        text = re.sub(r"```.*?```|`[^`\n]*`", "", doc.read_text("utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            linked = (doc.parent / path).resolve() if path else doc.resolve()
            if not linked.exists() or (anchor and anchor not in anchors.get(linked, set())):
                broken.append(f"{doc.relative_to(ROOT)}: ({target})")
    assert not broken, "links that lead nowhere:\n" + "\n".join(broken)
