"""The benchmarks' instruction count (``benchmarks/instructions.py``): the figure they give
where timing on a busy machine cannot show a difference of a tenth must be the same for the
same work and larger for more of it. Run where valgrind is installed."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


def _instructions() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "instructions", ROOT / "benchmarks" / "instructions.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not module.available():
        pytest.skip("valgrind is not installed")
    return module


def test_the_same_work_counts_the_same_and_more_work_counts_more() -> None:
    instructions = _instructions()
    env = dict(os.environ)
    work = "s = 0\nfor i in range(200_000):\n    s += hash(str(i))"
    once, again = (instructions.count([sys.executable, "-c", work], env=env) for _ in range(2))
    bare = instructions.count([sys.executable, "-c", "pass"], env=env)
    assert abs(once - again) <= once / 10_000  # string hashes seeded alike in every run
    assert once > bare + 20_000_000  # 200,000 turns of the loop, at least 100 instructions each


def test_a_command_that_fails_is_not_counted() -> None:
    instructions = _instructions()
    with pytest.raises(SystemExit, match="failed under valgrind"):
        instructions.count([sys.executable, "-c", "raise SystemExit(3)"], env=dict(os.environ))


def test_each_marked_stretch_is_counted_on_its_own_in_order() -> None:
    instructions = _instructions()
    program = (
        "import sys\n"
        "for n in (1_000, 50_000, 10_000):\n"
        "    sys.getswitchinterval()\n"
        "    s = sum(hash(str(i)) for i in range(n))\n"
        "    sys.is_finalizing()\n"
        "s = sum(hash(str(i)) for i in range(300_000))  # not marked: not counted\n"
    )
    counts = instructions.count_each([sys.executable, "-c", program], env=dict(os.environ))
    if not counts:
        pytest.skip("valgrind cannot read this interpreter's symbols")
    small, large, middle = counts
    assert small < middle < large  # each stretch alone, in the program's order
    assert 40 * small < large < 60 * small + 5_000_000  # about 50 times the work
    assert sum(counts) < instructions.count([sys.executable, "-c", program], env=dict(os.environ))
