"""Detection: JSON Lines no line reader claims get one sentence naming the first line's keys and what detection
looks for (each line reader's SIGNATURE); a single JSON document keeps its own errors."""

import io
import json
from html import unescape

import pytest

from passk.formats import FormatError, read_files, read_problems
from passk.formats.detect import LINE_READERS, detect_format
from passk.formats.registry import FORMATS, READERS

# JSON Lines of a layout passk has no reader for: a rating of each response
UNPLACED = [{"prompt": "Write a haiku.", "response": "...", "rating": 4, "annotator": "r1", "uid": 3},
            {"prompt": "List three.", "response": "...", "rating": 2, "annotator": "r2", "uid": 4}]


def lines(*records):
    return "".join(json.dumps(record) + "\n" for record in records).encode()


def refusal(content, filename=None):
    with pytest.raises(FormatError) as error:
        read_problems(content, filename=filename)
    return str(error.value)


def test_json_lines_no_reader_claims_are_named_as_json_lines_with_their_first_keys():
    message = refusal(lines(*UNPLACED))
    assert message.startswith('The input is JSON Lines whose first line\'s keys ("prompt", "response", "rating", '
                              '"annotator", "uid") fit none of the layouts passk reads; detection looks for '
                              'human-eval: JSONL lines with "task_id" and "passed"; ')
    assert "Extra data" not in message


def test_the_sentence_lists_every_line_reader_signature_in_the_order_formats_are_listed():
    message = refusal(lines(*UNPLACED))
    signatures = [f"{READERS[name].LABEL}: {READERS[name].SIGNATURE}" for name in FORMATS
                  if name in LINE_READERS and hasattr(READERS[name], "SIGNATURE")]
    assert len(signatures) >= 6   # human-eval, eval-arena, lm-eval, Every Eval Ever, NeMo-Skills, JSONL counts
    assert message.endswith("detection looks for " + "; ".join(signatures) + ".")
    assert 'JSONL counts: JSONL lines with "id" or "task_id", and "n" and "c"' in message


def test_a_long_first_line_names_five_keys_and_how_many_more():
    record = {f"field_{number}": number for number in range(8)}
    assert ('first line\'s keys ("field_0", "field_1", "field_2", "field_3", "field_4" and 3 more) fit none'
            in refusal(lines(record, record)))


def test_lines_of_empty_objects_are_said_to_be_empty():
    assert refusal(b"{}\n{}\n").startswith("The input is JSON Lines whose first line, an empty object, fits none of "
                                           "the layouts passk reads; detection looks for ")


def test_the_file_of_several_that_is_unplaced_is_named():
    message = str(pytest.raises(FormatError, read_files, [("a.jsonl", lines({"id": "a", "n": 1, "c": 1})),
                                                          ("b.jsonl", lines(*UNPLACED))]).value)
    assert message.startswith("b.jsonl: The input is JSON Lines whose first line's keys")


@pytest.mark.parametrize("content, start", [
    # one object alone is a JSON document: the counts reader says what it looked for among the documents
    (lines(UNPLACED[0]), "This JSON fits none of the layouts passk reads (an object with the keys "),
    (b'{"a": 1,\n "b": 2', "The input is not valid JSON"),                  # a document cut short
    (b'{"a": 1}\n[1, 2]\n', "The input is not valid JSON: Extra data at line 2"),   # not lines of objects
    # a JSON counts document followed by more is a document with extra data
    (lines({"problems": [{"task_id": "a", "n": 1, "c": 0}]}) * 2, "The input is not valid JSON: Extra data at line 2"),
])
def test_a_single_json_document_keeps_its_own_errors(content, start):
    assert refusal(content).startswith(start)


def test_a_one_line_jsonl_file_no_reader_claims_is_read_as_the_document_it_is():
    assert refusal(lines(UNPLACED[0]), "x.jsonl").startswith("This JSON fits none of the layouts passk reads")


@pytest.mark.parametrize("first_line, fmt", [
    ({"id": "a", "n": 3, "c": 1}, "jsonl"),
    ({"task_id": "a", "num_samples": 3, "num_correct": 1}, "jsonl"),
    ({"task_id": "HumanEval/0", "passed": True}, "humaneval"),
    ({"example_id": "HumanEval/0", "correct": 1, "count": 1}, "evalarena"),
    ({"doc_id": 0, "filter": "none", "resps": []}, "lmeval"),
    ({"schema_version": "0.2.0", "sample_id": "a", "evaluation": {}}, "everyevalever"),
])
def test_each_line_layout_is_still_detected_by_its_first_line(first_line, fmt):
    assert detect_format(lines(first_line, first_line)) == fmt


def test_the_api_and_the_page_refuse_unplaced_lines_with_the_sentence(client):
    content = lines(*UNPLACED)
    answer = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(content), "ratings.jsonl")},
                         content_type="multipart/form-data")
    assert answer.status_code == 400
    assert answer.json["error"].startswith("The input is JSON Lines whose first line's keys (\"prompt\", ")
    page = client.post("/benchmark", data={"file": (io.BytesIO(content), "ratings.jsonl")},
                       content_type="multipart/form-data")
    assert page.status_code == 400 and "fit none of the layouts passk reads" in unescape(page.get_data(as_text=True))
