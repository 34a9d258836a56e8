"""Issue 15 §1: every reader sees unpacked bytes through one bounded stream, and JSON is parsed as a stream.

The hostile rows of the issue's table are here as requests to the app, checked
by their answer (status and sentence), never by a clock: their CPU time and
memory are measured by bench/bench_limits.py. The JSON parser itself
(passk.formats._json) is checked against json.loads.
"""

import gzip
import io
import json
import struct
import zipfile
from dataclasses import replace

import pytest
from bodies import BOUNDARY, gzipped, multipart as form_body
from where import ROOT
from hypothesis import given, strategies as st

from passk.formats import FormatError, read_files, read_problems
from passk.formats import _cost, _json, humaneval, inspect_log
from passk.formats._json import parse_json
from passk.limits import LIMITS, Budget, TooLarge

MiB = 2**20
PROBLEM = {"task_id": "HumanEval/0", "n": 10, "c": 3}


def eval_log(members):
    """An Inspect .eval archive of {name: bytes}."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as writer:
        for name, content in members.items():
            writer.writestr(name, content)
    return archive.getvalue()


HEADER = json.dumps({"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}).encode()
SAMPLE = json.dumps({"id": 1, "epoch": 1, "scores": {"match": {"value": "C"}}}).encode()
SAMPLE_NAME = "samples/{:06d}_epoch_1.json"


def entries_at_one_member(count):
    """An .eval archive whose central directory lists count samples, every one at the same member's bytes."""
    archive = bytearray(eval_log({"header.json": HEADER, SAMPLE_NAME.format(0): SAMPLE}))
    end = archive.rindex(b"PK\x05\x06")
    directory_at = struct.unpack("<I", archive[end + 16:end + 20])[0]
    directory = bytes(archive[directory_at:end])
    sample_at = directory.index(b"PK\x01\x02", 4)   # the second entry: the sample
    entry = directory[sample_at:]
    name = SAMPLE_NAME.format(0).encode()
    entries = [entry.replace(name, SAMPLE_NAME.format(index).encode()) for index in range(count)]
    directory = directory[:sample_at] + b"".join(entries)
    entries = count + 1
    zip64_at = directory_at + len(directory)
    zip64 = b"PK\x06\x06" + struct.pack("<QHHIIQQQQ", 44, 45, 45, 0, 0, entries, entries, len(directory),
                                          directory_at)
    locator = b"PK\x06\x07" + struct.pack("<IQI", 0, zip64_at, 1)
    record = b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return bytes(archive[:directory_at]) + directory + zip64 + locator + record


def multipart(client, path, files, **fields):
    """POST a multipart body built whole (the test client would spool its own to a file it never closes)."""
    body = form_body(fields.items(), [(name, filename, content) for name, parts in files.items()
                                      for filename, content in parts])
    return client.post(path, data=body, content_type=f"multipart/form-data; boundary={BOUNDARY}")


# --- the table, as requests ------------------------------------------------------------------------


BOMBS = [
    pytest.param(b"0,", 256 * MiB, id="gzip of 256 MiB of [0,0,...]"),
    pytest.param(b"{},", 256 * MiB, id="gzip of 256 MiB of [{},{},...]"),
    pytest.param(b"0,", 64 * MiB, id="gzip of 64 MiB of [0,0,...]"),
    pytest.param(b'{"a":{}},', 64 * MiB, id='gzip of 64 MiB of [{"a":{}},...]'),
]


@pytest.mark.parametrize(("unit", "unpacked"), BOMBS)
def test_a_gzip_bomb_of_tiny_values_is_refused_with_413_naming_the_limit(client, unit, unpacked):
    response = multipart(client, "/api/v1/benchmark", {"file": [("results.json.gz", gzipped(unit, unpacked))]},
                         k="1")
    assert response.status_code == 413
    assert response.json["error"].startswith("The JSON holds more than 3,000,000 keys and values, the most one "
                                              "request may read")


def test_the_page_says_the_same_413_and_keeps_the_form(client):
    response = multipart(client, "/benchmark", {"file": [("results.json.gz", gzipped(b"{},", 64 * MiB))]},
                         k="1, 7")
    page = response.get_data(as_text=True)
    assert response.status_code == 413
    assert "The JSON holds more than 3,000,000 keys and values" in page and 'value="1, 7"' in page


def test_an_eval_log_whose_header_is_64_mib_of_objects_is_refused(client):
    header = b'{"version": 2, "eval": {"task": "t", "model": "m"}, "plan": [' + b"{}," * (64 * MiB // 3) + b"{}]}"
    response = multipart(client, "/api/v1/benchmark", {"file": [("log.eval", eval_log({"header.json": header}))]},
                         k="1")
    assert response.status_code == 413 and "3,000,000 keys and values" in response.json["error"]


def test_an_eval_log_of_20000_entries_at_one_member_is_refused_before_any_is_unpacked(client):
    archive = entries_at_one_member(20_000)
    assert len(zipfile.ZipFile(io.BytesIO(archive)).infolist()) == 20_001   # zipfile itself would read them all
    response = multipart(client, "/api/v1/benchmark", {"file": [("log.eval", archive)]}, k="1")
    assert response.status_code == 400
    assert "overlaps the one before it, as in a zip bomb" in response.json["error"]


def test_an_eval_log_of_199998_members_is_refused_by_their_cost_before_zipfile_lists_them(client, monkeypatch):
    # issue 25: 199,998 tiny members (under archive_members) took 25 s to open and count one by one
    archive = entries_at_one_member(199_997)
    monkeypatch.setattr(inspect_log.zipfile, "ZipFile", None)   # refused from the end record alone
    response = multipart(client, "/api/v1/benchmark", {"file": [("log.eval", archive)]}, k="1")
    assert response.status_code == 413
    assert response.json["error"].startswith(
        f"The zip archive has 199,998 members; opening and counting each costs about {_cost.MEMBER:g} µs, so "
        f"reading them would take about {199_998 * _cost.MEMBER / 1e6:.2g} s of computing, more than is left of "
        "the 1.5 s one request may spend reading (all of its files together)")


def test_an_archives_members_are_charged_before_any_is_unpacked_from_what_the_request_has_left(monkeypatch):
    log = eval_log({"header.json": HEADER, **{SAMPLE_NAME.format(index): SAMPLE.replace(b'"id": 1', b'"id": %d' % index)
                                              for index in range(9)}})   # 10 members
    budget = Budget()
    budget.spend_work(LIMITS.read_work - 10 * _cost.MEMBER - 1000)   # what the request's other files left
    assert read_problems(log, budget=budget).problems[8].task_id == "8"
    budget = Budget()
    budget.spend_work(LIMITS.read_work - 9.5 * _cost.MEMBER)
    monkeypatch.setattr(inspect_log.zipfile, "ZipFile", None)
    with pytest.raises(TooLarge, match=r"^The zip archive has 10 members; .* more than is left of the 1.5 s"):
        read_problems(log, budget=budget)


def test_an_eval_log_declaring_more_members_than_read_is_refused_by_its_end_record(monkeypatch):
    archive = entries_at_one_member(2)
    monkeypatch.setattr(inspect_log, "LIMITS", replace(LIMITS, archive_members=2))
    monkeypatch.setattr(inspect_log.zipfile, "ZipFile", None)   # refused before zipfile lists the entries
    with pytest.raises(FormatError, match=r"^The zip archive has 3 members, more than the 2 that are read"):
        read_problems(archive)


def test_eight_gzip_parts_unpacking_past_the_request_budget_are_refused_at_the_budget(client):
    part = gzipped(b'"' + b"x" * (64 * 1024 - 4) + b'",', 48 * MiB, opening=b'{"problems": [' +
                   json.dumps(PROBLEM).encode() + b'], "padding": [', closing=b'""]}')
    response = multipart(client, "/api/v1/benchmark", {"file": [(f"part{index}.json.gz", part)
                                                                for index in range(8)]}, k="1")
    assert response.status_code == 413
    assert response.json["error"].startswith("The input unpacks to more than 256 MiB, the most one request may "
                                              "unpack (all of its gzip and zip files together)")


def test_one_such_part_alone_is_read(client):
    part = gzipped(b'"' + b"x" * (64 * 1024 - 4) + b'",', 48 * MiB, opening=b'{"problems": [' +
                   json.dumps(PROBLEM).encode() + b'], "padding": [', closing=b'""]}')
    response = multipart(client, "/api/v1/benchmark", {"file": [("part.json.gz", part)]}, k="1")
    assert response.status_code == 200 and response.json["problems"] == 1


def test_a_json_value_longer_than_the_stretch_is_refused_before_yajl_rescans_it(client):
    body = gzipped(b"x" * 1024, 64 * MiB, opening=b'{"problems": [], "note": "', closing=b'"}')
    response = multipart(client, "/api/v1/benchmark", {"file": [("results.json.gz", body)]}, k="1")
    assert response.status_code == 413
    assert "goes on for more than 8 MiB without a string ending" in response.json["error"]


def test_a_json_document_past_its_size_is_refused():
    document = gzipped(b'"' + b"x" * 1000 + b'",', 65 * MiB, opening=b"[", closing=b'""]')
    with pytest.raises(TooLarge, match=r"^The JSON input holds more than 64 MiB of JSON, the most one document"):
        read_problems(document, budget=Budget())
    assert read_problems(json.dumps([PROBLEM]).encode(), budget=Budget()).problems[0].n == 10


def test_a_json_body_of_tiny_values_is_refused_with_413(client):
    body = b'{"problems": [' + b"{}," * (7 * MiB // 3) + b'{}], "k": [1]}'
    response = client.post("/api/v1/benchmark", data=body, content_type="application/json")
    assert response.status_code == 413 and "3,000,000 keys and values" in response.json["error"]


def test_the_budget_is_shared_by_the_runs_of_a_comparison(client):
    run = json.dumps({"problems": [PROBLEM], "padding": [{}] * 1_000_000}).encode()
    response = multipart(client, "/api/v1/compare", {"a": [("a.json", run)], "b": [("b.json", run)]}, k="1")
    assert response.status_code == 413   # 2,000,010 tokens each: one fits, two do not
    assert multipart(client, "/api/v1/benchmark", {"file": [("a.json", run)]}, k="1").status_code == 200


def test_the_command_line_and_the_library_have_no_budget():
    document = json.dumps({"problems": [PROBLEM], "padding": [0] * 3_500_000}).encode()
    assert read_problems(document).problems[0].c == 3
    with pytest.raises(TooLarge):
        read_files([("a.json", document)], budget=Budget())


# --- the streaming parser against json.loads ---------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(max_size=30)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=40)


@given(json_values)
def test_a_document_reads_as_json_loads_reads_it(value):
    text = json.dumps(value).encode()
    assert parse_json(io.BytesIO(text)) == json.loads(text)


@given(json_values)
def test_the_budget_counts_one_token_a_key_value_and_bracket(value):
    budget = Budget()
    parse_json(io.BytesIO(json.dumps(value).encode()), budget)
    assert LIMITS.json_tokens - budget.tokens == tokens_of(value)


def tokens_of(value):
    if isinstance(value, dict):
        return 2 + sum(1 + tokens_of(item) for item in value.values())
    if isinstance(value, list):
        return 2 + sum(map(tokens_of, value))
    if isinstance(value, str):
        return 1 + len(value) // _json.TEXT_TOKEN_CHARACTERS
    return 1


def test_a_document_one_token_past_the_budget_is_refused_and_one_within_is_read():
    text = json.dumps([0] * 98).encode()   # 100 tokens
    assert parse_json(io.BytesIO(text), Budget(replace(LIMITS, json_tokens=100))) == [0] * 98
    with pytest.raises(TooLarge, match="more than 99 keys and values"):   # the sentence names its own table
        parse_json(io.BytesIO(text), Budget(replace(LIMITS, json_tokens=99)))


def test_long_strings_are_kept_to_a_task_ids_length_and_cost_tokens_for_it():
    budget = Budget()
    assert parse_json(io.BytesIO(json.dumps(["x" * 100_000]).encode()), budget) == ["x" * 201]
    assert LIMITS.json_tokens - budget.tokens == 2 + 1 + 201 // 32


def test_only_keeps_the_top_level_keys_named():
    document = {"id": 1, "messages": [{"role": "user", "content": [1, {"a": []}]}], "scores": {"m": {"value": "C"}},
                "events": {"x": [[], {}]}, "error": None}
    read = parse_json(io.BytesIO(json.dumps(document).encode()), only={"id", "scores", "error"})
    assert read == {"id": 1, "scores": {"m": {"value": "C"}}, "error": None}


@pytest.mark.parametrize(("text", "message"), [
    (b'{"eval": {"a": [}', "The input is not valid JSON: Expecting value at line 1, column 17."),
    (b"[" * 200 + b"]" * 200, "The input is nested too deeply to read"),
    (b"[1] x", "The input is not valid JSON: Extra data at line 1, column 5."),
])
def test_a_short_documents_error_is_the_one_json_gives(text, message):
    with pytest.raises(FormatError) as caught:
        parse_json(io.BytesIO(text))
    assert str(caught.value).startswith(message)


def test_a_long_documents_error_is_yajls_reason():
    text = json.dumps([PROBLEM] * 40_000).encode() + b" x"
    assert len(text) > _json.RETRACE_BYTES
    with pytest.raises(FormatError, match=r"^The input is not valid JSON: trailing garbage\.$"):
        parse_json(io.BytesIO(text))


def test_json_reads_what_yajl_refuses_in_a_short_document_so_its_rules_apply():
    assert parse_json(io.BytesIO(b"[NaN, 123456789012345678901234567890]"))[1] == 123456789012345678901234567890


def test_a_line_longer_than_the_longest_read_is_refused_in_a_request_not_on_the_command_line():
    line = json.dumps({"task_id": "HumanEval/0", "completion": "x" * (9 * MiB), "passed": True}).encode() + b"\n"
    text = json.dumps({"task_id": "HumanEval/0", "completion": "", "passed": False}).encode() + b"\n" + line
    with pytest.raises(TooLarge, match=r"^Line 2 is longer than 8 MiB, the longest line read"):
        read_problems(text, filename="samples.jsonl", max_lines=100)
    assert read_problems(text, filename="samples.jsonl").problems[0].n == 2


# --- what reading costs: every file of a request spent from one budget of estimated work (issue 25) ---------


def humaneval_lines(count, tail=b""):
    return b"".join(b'{"task_id": "t%d", "passed": %s%s}\n' % (index % 50, b"true" if index % 3 else b"false", tail)
                    for index in range(count))


def spent(data, filename):
    """The estimated microseconds of reading data as a request's one file."""
    budget = Budget()
    read_problems(data, filename=filename, budget=budget)
    return LIMITS.read_work - budget.work


def test_the_lines_of_every_file_of_a_request_are_spent_from_one_budget():
    # 40 parts of 200,000 rows each passed the lines limit of a file, never the request's: 8,000,000 rows in all
    part = b"task_id,passed\n" + b"".join(b"t%d,1\n" % (index % 50) for index in range(20_000))
    limits = replace(LIMITS, read_work=int(2.5 * spent(part, "a.csv")))
    assert read_files([("a.csv", part), ("b.csv", part)], budget=Budget(limits)).problems[0].n == 800
    with pytest.raises(TooLarge, match=r"^Reading the input .*takes more than the 0\.\d+ s of computing one request "
                                       r"may spend reading \(all of its files together\)"):
        read_files([(f"{name}.csv", part) for name in "abc"], budget=Budget(limits))
    assert read_files([(f"{name}.csv", part) for name in "abc"]).problems[0].n == 1200   # no budget: any size


@pytest.mark.parametrize("packed", [False, True], ids=["a file", "gzipped"])
def test_lines_whose_reading_passes_the_budget_are_refused_at_the_piece_that_passes_it(packed):
    lines = humaneval_lines(100_000)
    limits = replace(LIMITS, read_work=int(spent(lines, "r.jsonl") / 2))
    budget = Budget(limits)
    with pytest.raises(TooLarge, match=r"^Reading the input takes more than the 0\.\d+ s of computing one request "
                                       r"may spend reading \(all of its files together\); send smaller or fewer files"):
        read_problems(gzip.compress(lines) if packed else lines, filename="r.jsonl", budget=budget)
    assert -budget.work < 0.05 * limits.read_work   # stopped within a piece of the budget, half the file unread


def test_json_lines_of_values_are_spent_by_their_values_not_their_bytes():
    values = humaneval_lines(1000, b', "x": [' + b"0," * 200 + b"0]")
    text = humaneval_lines(1000, b', "x": "' + b"0," * 200 + b'0"')   # as many bytes, in one string
    assert len(values) == len(text)
    assert spent(values, "r.jsonl") > 3 * spent(text, "r.jsonl")


def test_a_long_whole_number_costs_its_digits_squared():
    # Python turns n digits into an int in time n²: 4,000 digits take 0.1 ms, 40 a few ns
    assert _cost.json_line_work({"x": 10**3999}) > (4000**2 * _cost.DIGITS_SQUARED) * 0.99
    assert _cost.json_line_work({"x": 10**39}) == _cost.object_work(1)   # short: priced as any whole number
    assert _cost.json_line_work({"x": "a string"}) == _cost.object_work(1, plain=1)


@pytest.mark.parametrize(("filename", "data"), [
    pytest.param("r.jsonl", humaneval_lines(500_000), id="human-eval JSONL of 500,000 lines"),
    pytest.param("s.csv", b"task_id,passed\n" + b"".join(b"t%d,%d\n" % (index % 5000, index % 3 == 0)
                                                         for index in range(499_999)), id="per-sample CSV of 500,000 rows"),
])
def test_the_largest_line_files_within_the_limits_fit_the_reading_budget(filename, data):
    assert spent(data, filename) < LIMITS.read_work


def test_a_79_mb_human_eval_file_of_code_completions_fits_the_reading_budget():
    # bench/make_humaneval.py's 164 x 1,000 samples of code (79,358,177 bytes, 484 a line), from a part of it
    code = 'def f(x):\n\treturn [v for v in x if v != "é"]  # \\d+ → done ✅\n' * 13
    lines = b"".join(json.dumps({"task_id": f"HumanEval/{index % 164}", "completion": code[:100 + index % 400],
                                 "result": "passed", "passed": index % 2 == 0}).encode() + b"\n"
                     for index in range(1640))
    assert 400 < len(lines) / 1640 < 600
    assert spent(lines, "samples.jsonl_results.jsonl") * 79_358_177 / len(lines) < 0.8 * LIMITS.read_work
