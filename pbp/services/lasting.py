"""What a process keeps to its end, set aside from the garbage collector's full passes.

Python's collector walks every object it tracks at each full collection, and a running bot
tracks a great many that last as long as it does: the modules and classes, SQLAlchemy's and
Jinja's machinery, the compiled templates and statements, the campaigns and the threads'
cached states. ``set_aside()`` freezes what is alive (``gc.freeze``): later collections walk
only what was made since. A frozen object is still freed when nothing refers to it any more
(reference counting), but a reference cycle that holds a frozen object is never collected,
even with objects made later in it. In a bot, what stays so is what the first poll left, once:
a compiled template of its that a GM's edited override replaces (a template and its
environment refer to each other); a later poll's values are frozen dataclasses and tuples,
which make no cycles (``pbp run``'s memory over 50,000 posts is measured by
``benchmarks/run_memory.py``).
"""

from __future__ import annotations

import gc


def set_aside(*, collect: bool) -> bool:
    """Freeze every object alive now (after a full collection, ``collect``, so that no
    garbage is frozen with them); whether nothing was frozen before (then ``given_back``
    unfreezes them all when the caller is done)."""
    first = gc.get_freeze_count() == 0
    if collect:
        gc.collect()
    gc.freeze()
    return first


def given_back(first: bool) -> None:
    """What ``set_aside`` froze is collected as before again, so that a process that runs on
    (a test's) collects it; unless something else had frozen objects before (``first`` is
    False): what it froze stays so."""
    if first:
        gc.unfreeze()
