"""Log lines about failures that say where they happened, never what a user sent.

An exception's message may quote the input (a task id, a line of a file), and
gunicorn's own lines quote the request line and the client's address; the
server layer logs through `describe` instead, so a log holds only code
locations.
"""

import os
import traceback


def describe(error: BaseException) -> str:
    """'ValueError in passk/formats.py:120 (read_problems) <- app.py:88 (benchmark)': type and frames only."""
    frames = traceback.extract_tb(error.__traceback__)[-4:]
    where = " <- ".join(f"{_short(frame.filename)}:{frame.lineno} ({frame.name})" for frame in reversed(frames))
    return f"{type(error).__name__} in {where}" if where else type(error).__name__


def _short(filename: str) -> str:
    """A source file's path from the package folder down, not the machine's."""
    parts = filename.split(os.sep)
    for anchor in ("site-packages", "passk"):
        if anchor in parts:
            index = parts.index(anchor)
            return "/".join(parts[index + (anchor == "site-packages"):])
    return parts[-1]
