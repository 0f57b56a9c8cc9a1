"""The table of commands: one row for every typed command the tag grammar reads, each word a
word of the grammar, and every acknowledgement record worded by a template of its own."""

from __future__ import annotations

from dataclasses import fields

import pytest

from pbp.engine import done
from pbp.engine.command_table import CommandRow
from pbp.engine.commands import COMMANDS, command_row
from pbp.render.environment import make_environment
from pbp.tags.command_parser import READERS
from pbp.tags.commands import COMMAND_TYPES, CommandTiming, TaskCommand
from pbp.tags.model import Source

RECORDS = [
    kind
    for kind in vars(done).values()
    if isinstance(kind, type) and issubclass(kind, done.Done) and kind is not done.Done
]


def test_every_command_type_has_one_row_and_every_row_one_type() -> None:
    kinds = [entry.command for entry in COMMANDS]

    assert sorted(k.__name__ for k in kinds) == sorted(k.__name__ for k in COMMAND_TYPES)
    assert len(set(kinds)) == len(kinds)


def test_every_word_of_the_grammar_is_in_the_table_and_nothing_else() -> None:
    assert {entry.word for entry in COMMANDS} == set(READERS)


@pytest.mark.parametrize("entry", COMMANDS, ids=lambda e: e.command.__name__)
def test_a_rows_reader_and_timing_are_its_commands(entry: CommandRow) -> None:
    assert entry.reader is READERS[entry.word]
    assert entry.timing is entry.command.timing
    assert entry.timing in CommandTiming


def test_a_rulesets_command_has_its_rulesets_row() -> None:
    task = TaskCommand(
        source=Source(index=0, line=1, column=1, text="!task Climb dc 60"), name="Climb", dc=60
    )

    entry = command_row(task)

    assert entry.command is TaskCommand and entry.acknowledge is not None


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_every_acknowledgement_record_has_a_template_of_its_own(record: type[done.Done]) -> None:
    env = make_environment()
    others = [r.template for r in RECORDS if r is not record]

    assert record.template and record.template not in others
    assert env.get_template(f"done/{record.template}.md.j2") is not None
    assert all(f.name != "kind" for f in fields(record))  # typed, not a kind string
