"""Issue 15 §1: every reader sees unpacked bytes through one bounded stream, and JSON is parsed as a stream.

The hostile rows of the issue's table are here as requests to the app, checked
by their answer (status and sentence), never by a clock: their CPU time and
memory are measured by bench/bench_limits.py. The JSON parser itself
(passk.formats._json) is checked against json.loads.
"""

import io
import json
import struct
import zipfile
from dataclasses import replace

import pytest
from bodies import BOUNDARY, gzipped, multipart as form_body
from hypothesis import given, strategies as st

from passk.formats import FormatError, read_files, read_problems
from passk.formats import _json, inspect_log
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


def test_an_eval_log_of_100000_entries_at_one_member_is_refused_before_any_is_unpacked(client):
    archive = entries_at_one_member(100_000)
    assert len(zipfile.ZipFile(io.BytesIO(archive)).infolist()) == 100_001   # zipfile itself would read them all
    response = multipart(client, "/api/v1/benchmark", {"file": [("log.eval", archive)]}, k="1")
    assert response.status_code == 400
    assert "overlaps the one before it, as in a zip bomb" in response.json["error"]


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
