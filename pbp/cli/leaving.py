"""How the `pbp` process ends: at once, once its command is done and its output written.

When a command has run, Python's own end tears the interpreter down object by object: every
module, class, compiled statement and template, and everything a replay or a poll left alive.
That is about a tenth of a second of nothing (a twentieth of replaying a 2,000-post thread; a
fifth of a short one), after the last line is out. ``leave`` does what Python's end does that
anyone can see (the functions registered with ``atexit``, which close the logs and remove
temporary folders; standard output and error flushed) and then ends the process with the
command's exit status, without the teardown.

It ends the usual way instead (returns, for the caller to exit as before) whenever that
teardown may be something's business: a thread other than the main one that is not a daemon
is still running (Python would wait for it), a profiler or tracer is watching (it writes its
findings after the program returns), the exit status is not a number from 0 to 255 (Python
prints one that is no number, and takes a larger one its own way), or standard output or
error cannot be flushed (Python says so, as it always has, and ends with status 120).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading


def leave(code: object) -> None:
    """End the process now with exit status ``code`` (what ``sys.exit(code)`` was given), as
    Python would at its end but for the teardown; or return, when the usual end must run (see
    the module's text): the caller then exits as before."""
    if code is None:
        code = 0
    if not isinstance(code, int) or not 0 <= code <= 255:
        return
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return
    if threading.current_thread() is not threading.main_thread() or _others_running():
        return
    run_exit_functions = getattr(atexit, "_run_exitfuncs", None)  # (CPython's, and PyPy's)
    if run_exit_functions is None:
        return
    run_exit_functions()  # what Python runs at its end (each once: a later end runs none)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # (a closed pipe, say): Python's own end reports it
        return
    os._exit(int(code))


def _others_running() -> bool:
    """Whether a thread Python would wait for at its end is still running."""
    main = threading.main_thread()
    return any(t is not main and not t.daemon and t.is_alive() for t in threading.enumerate())
