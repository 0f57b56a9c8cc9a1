"""A long replay gives the heap's freed memory back to the system (glibc's ``malloc_trim``)."""

from __future__ import annotations

import os
import platform

import pytest

from pbp.services import freed_memory


def _resident_mib() -> float:
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only"
)
def test_on_glibc_the_memory_freed_in_the_middle_of_the_heap_goes_back() -> None:
    held = [bytearray(64 * 1024) for _ in range(1_000)]  # 64 MiB on the heap (not mmap)
    del held[::2]  # half of it freed, every other block: the heap's top stays in use
    before = _resident_mib()
    freed_memory.give_back()
    assert before - _resident_mib() > 16  # most of the 32 MiB freed is the system's again
    assert len(held) == 500


def test_without_glibc_giving_back_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freed_memory, "_trim", lambda: None)
    freed_memory.give_back()  # no C library call, no error
