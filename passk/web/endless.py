"""A deliberately endless statistic, for the tests of the ceiling alone: registered only when the environment
sets PASSK_TEST_ENDLESS=1 (tests/stack start servers so, passk serve among them), never in a deployment.

It stands for a statistic nobody has written yet whose cost no estimate foresaw: the ceiling
(passk.web.ceiling) must end it and answer with its sentence, whatever kind of work never ends.
"""

import os
import re

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

endless = Blueprint("endless", __name__)
SWITCH = "PASSK_TEST_ENDLESS"


@endless.get("/benchmark/endless")
@endless.get("/api/v1/endless")
def endless_statistic() -> ResponseReturnValue:
    """Under /benchmark, so that nginx routes it as the share links of that page (deploy/nginx.conf), and under
    /api/v1 for a JSON answer:
    ?kind=python loops in Python, kind=c in one call into C (a backtracking regular expression, which no signal
    interrupts), kind=memory allocates without end; kind=crash ends its process at once (a bug's stand-in)."""
    kind = request.args.get("kind", "python")
    if kind == "crash":   # not endless: a bug that ends its process, as a fault in a C extension would
        os.abort()
    if kind == "c":
        return jsonify(matched=bool(re.match(r"(a|aa)+$", "a" * 64 + "b")))
    if kind == "memory":
        hoard = []
        while True:
            hoard.append(bytearray(64 * 2**20))
    total = 0
    while True:
        total += 1
