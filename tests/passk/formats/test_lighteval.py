"""lighteval details (.parquet): each row a problem, its samples read from a k=1 metric over n, or one sample.

The fixtures in tests/fixtures/lighteval are written by make.py there in lighteval's three layouts (0.11 and
later; 0.8 to 0.10; before 0.8); lighteval's own figure for a metric is the mean of its per-row values (the
corpus-level np.mean), which these tests read from the file itself with pyarrow and check passk reproduces.
"""

import io
import sys
from fractions import Fraction
from math import comb

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings, strategies as st

from passk.__main__ import main
from passk.results.benchmark import summarize
from passk.formats import FORMAT_NAMES, FORMATS, FormatError, read_problems
from passk.formats import lighteval
from passk.limits import Budget, Limits, TooLarge
from where import FIXTURES

FOLDER = FIXTURES / "lighteval"
AIME = FOLDER / "details_aime24|0_2025-11-05T14-43-47.148527.parquet"      # 0.11+: doc, metric, model_response
GSM8K = FOLDER / "details_gsm8k|5_2025-03-01T10-00-00.000000.parquet"      # 0.8 to 0.10: metrics, no id
ARC = FOLDER / "details_arc:challenge|25_2024-05-01T12-00-00.000000.parquet"   # before 0.8: every column text


def counts(parsed):
    return [(p.task_id, p.n, p.c) for p in parsed.problems]


def lighteval_figure(path, column, metric):
    """What lighteval prints for a metric: the mean of its value over the rows, from the file itself."""
    values = pq.read_table(path, columns=[column])[column].combine_chunks().field(metric).to_pylist()
    return sum(values) / len(values)


def parquet(rows):
    """Parquet bytes of rows (dicts), as lighteval writes them: the columns in sorted order."""
    buffer = io.BytesIO()
    pq.write_table(pa.Table.from_pylist([{key: row[key] for key in sorted(row)} for row in rows]), buffer)
    return buffer.getvalue()


def new_rows(values, metric="pass@k:k=1&n=4", ids=None):
    return [{"doc": {"query": "q", "id": str(index) if ids is None else ids[index]}, "metric": {metric: value},
             "model_response": {"text": ["a"] * 4}} for index, value in enumerate(values)]


def test_the_format_is_on_the_menu():
    assert "lighteval" in FORMATS
    assert FORMAT_NAMES["lighteval"] == "lighteval details_*.parquet"


def test_a_k1_metric_over_n_gives_each_documents_samples_and_passes():
    parsed = read_problems(AIME.read_bytes(), filename=AIME.name)
    assert parsed.format == "lighteval" and "lighteval 0.11 or later" in parsed.source
    assert counts(parsed) == [("0", 4, 4), ("1", 4, 3), ("2", 4, 0), ("3", 4, 1), ("4", 4, 2), ("5", 4, 4)]


def test_the_figures_are_lightevals_own_for_pass_at_1_and_pass_at_2():
    summary = summarize(read_problems(AIME.read_bytes()).problems, [1, 2])
    passed = [4, 3, 0, 1, 2, 4]
    exact = {k: sum(1 - Fraction(comb(4 - c, k), comb(4, k)) for c in passed) / len(passed) for k in (1, 2)}
    assert exact == {1: Fraction(7, 12), 2: Fraction(13, 18)}
    for result in summary.results:
        assert result.pass_at_k == pytest.approx(float(exact[result.k]), rel=1e-15, abs=0)
        metric = f"pass@k:k={result.k}&n=4"
        assert result.pass_at_k == pytest.approx(lighteval_figure(AIME, "metric", metric), rel=1e-15, abs=0)


def test_avg_at_n_gives_the_same_samples():
    parsed = read_problems(AIME.read_bytes(), suite="avg@n:n=4")
    assert counts(parsed) == counts(read_problems(AIME.read_bytes()))
    assert parsed.warnings == ['The file holds 3 lighteval metrics; this is metric "avg@n:n=4" (4 samples a '
                               'problem). The others: "pass@k:k=1&n=4", "pass@k:k=2&n=4"; choose one with the '
                               "suite choice (suite=, --suite)."]


def test_the_older_layout_names_problems_by_row_and_reads_the_old_pass_at_1_name():
    parsed = read_problems(GSM8K.read_bytes())
    assert "lighteval 0.8 to 0.10" in parsed.source
    assert counts(parsed) == [("row 1", 4, 3), ("row 2", 4, 0), ("row 3", 4, 2), ("row 4", 4, 4), ("row 5", 4, 1)]
    pass_at_1 = summarize(parsed.problems, [1]).results[0].pass_at_k
    assert pass_at_1 == float(Fraction(10, 20)) == lighteval_figure(GSM8K, "metrics", "math_pass@1:4_samples")


def test_a_zero_one_metric_is_one_sample_a_document():
    parsed = read_problems(GSM8K.read_bytes(), suite="extractive_match")
    assert counts(parsed) == [("row 1", 1, 1), ("row 2", 1, 0), ("row 3", 1, 0), ("row 4", 1, 1), ("row 5", 1, 0)]
    assert summarize(parsed.problems, [1]).results[0].pass_at_k == pytest.approx(
        lighteval_figure(GSM8K, "metrics", "extractive_match"), rel=1e-15) == 2 / 5


@pytest.mark.parametrize(("suite", "passed"), [("plus", [1, 0, 1, 1, 0, 1, 0]), ("acc_norm", [1, 1, 1, 0, 0, 1, 1])])
def test_the_oldest_layout_reads_metrics_written_as_text(suite, passed):
    parsed = read_problems(ARC.read_bytes(), suite=suite)
    assert "lighteval before 0.8" in parsed.source
    assert counts(parsed) == [(f"row {row}", 1, ok) for row, ok in enumerate(passed, 1)]
    assert summarize(parsed.problems, [1]).results[0].pass_at_k == float(Fraction(sum(passed), 7))


def test_without_n_in_its_name_pass_at_1_counts_each_documents_generations():
    rows = new_rows([0.75, 0.25], metric="pass@k:k=1")
    assert counts(read_problems(parquet(rows))) == [("0", 4, 3), ("1", 4, 1)]


@pytest.mark.parametrize(("rows", "suite", "message"), [
    (new_rows([0.5, 0.3]), "plus", 'Row 2: metric "pass@k:k=1&n=4" must be c/4, the share of its 4 samples that '
                                   "passed; got 0.3."),
    (new_rows([1.0, None], metric="acc"), "plus", 'Row 2: metric "acc" must be 1 or 0 (true or false), a sample\'s '
                                                  "verdict; got null."),
    (new_rows([0.7], metric="f1"), "plus", 'Row 1: metric "f1" must be 1 or 0'),
    (new_rows([1.0], metric="maj@n:n=4"), "plus", 'The lighteval metric "maj@n:n=4" is an aggregate over the '
                                                  "samples (a majority vote or G-Pass@k), not their verdicts"),
    (new_rows([1.0], metric="pass@k:k=2&n=4"), "plus", "is pass@2 of each problem's 4 samples, an estimate"),
    (new_rows([1.0]), "acc", 'The file has no lighteval metric "acc"; its metrics: "pass@k:k=1&n=4".'),
    (new_rows([1.0], ids=["x" * 300]), "plus", "Row 1: the task id is 300 characters long"),
    ([{"task": "a", "score": 1}], "plus", 'The Parquet file has no "metric" column (lighteval 0.11 and later) nor '
                                          '"metrics" (earlier): it is not lighteval details, the only Parquet files '
                                          "read; its columns: score, task."),
])
def test_errors_name_the_row_and_the_metric(rows, suite, message):
    with pytest.raises(FormatError, match=None) as error:
        read_problems(parquet(rows), suite=suite)
    assert message in str(error.value)


def test_a_file_cut_short_is_refused():
    with pytest.raises(FormatError, match="does not end as one"):
        read_problems(AIME.read_bytes()[:-100])


def test_a_parquet_file_named_as_another_format_and_text_named_lighteval_are_refused():
    with pytest.raises(FormatError, match="The input is a Parquet file, not CSV"):
        read_problems(AIME.read_bytes(), fmt="csv")
    with pytest.raises(FormatError, match="does not start with PAR1"):
        read_problems("10 3\n", fmt="lighteval")


def test_detection_is_by_the_magic_bytes_whatever_the_name():
    assert read_problems(AIME.read_bytes(), filename="results.jsonl").format == "lighteval"
    assert AIME.read_bytes()[:4] == lighteval.MAGIC


def test_the_columns_read_are_paid_for_before_they_are_read():
    budget = Budget(Limits(unpacked_bytes=20_000))
    read_problems(AIME.read_bytes(), budget=budget)   # the metadata, then the id and one metric
    footer = int.from_bytes(AIME.read_bytes()[-8:-4], "little")
    row_group = pq.ParquetFile(AIME).metadata.row_group(0)
    columns = [row_group.column(at) for at in range(row_group.num_columns)]
    read = [column.total_uncompressed_size for column in columns
            if column.path_in_schema in ("doc.id", "metric.pass@k:k=1&n=4")]
    assert len(read) == 2 and 20_000 - budget.unpacked == footer + sum(max(size, 6 * 8) for size in read)
    with pytest.raises(TooLarge, match="unpacks to more than"):
        read_problems(parquet(new_rows([1.0] * 3000)), budget=Budget(Limits(unpacked_bytes=20_000)))


def test_more_rows_than_the_problem_limit_are_refused_before_reading():
    with pytest.raises(FormatError, match="more than 2 problems"):
        read_problems(AIME.read_bytes(), max_problems=2)


@pytest.fixture
def without_pyarrow(monkeypatch):
    """pyarrow made unimportable, as in the base install."""
    for name in [name for name in sys.modules if name == "pyarrow" or name.startswith("pyarrow.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)


def test_without_pyarrow_the_error_says_what_to_install(without_pyarrow):
    with pytest.raises(FormatError) as error:
        read_problems(AIME.read_bytes())
    assert str(error.value) == lighteval.INSTALL
    assert 'pip install "passk-calculator[parquet]"' in lighteval.INSTALL


def test_without_pyarrow_the_command_line_says_it(without_pyarrow, capsys):
    assert main([str(AIME)]) != 0
    assert 'pip install "passk-calculator[parquet]"' in capsys.readouterr().err


def test_without_pyarrow_the_page_and_the_api_say_it(without_pyarrow, client):
    form = {"file": (io.BytesIO(AIME.read_bytes()), AIME.name), "k": "1"}
    api = client.post("/api/v1/benchmark", data=form, content_type="multipart/form-data")
    assert api.status_code == 400 and api.json == {"error": lighteval.INSTALL}
    page = client.post("/benchmark", data={"file": (io.BytesIO(AIME.read_bytes()), AIME.name), "k": "1"},
                       content_type="multipart/form-data")
    assert 'pip install &#34;passk-calculator[parquet]&#34;' in page.get_data(as_text=True)


def test_the_page_and_the_api_read_an_upload(client):
    api = client.post("/api/v1/benchmark", data={"file": (io.BytesIO(AIME.read_bytes()), AIME.name), "k": "1,2"},
                      content_type="multipart/form-data")
    assert api.status_code == 200, api.json
    assert api.json["format"] == "lighteval" and api.json["problems"] == 6
    assert [result["pass_at_k"] for result in api.json["results"]] == pytest.approx([7 / 12, 13 / 18], rel=1e-15)
    page = client.post("/benchmark", data={"file": (io.BytesIO(GSM8K.read_bytes()), GSM8K.name), "k": "1",
                                           "suite": "extractive_match"}, content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "40.00" in html and "lighteval" in html


def test_the_command_line_reads_a_details_file_and_its_metric_choice(capsys):
    assert main([str(GSM8K), "-k", "1", "--suite", "extractive_match", "--json"]) == 0
    output = capsys.readouterr()
    assert '"pass_at_k": 0.4' in output.out and "suite choice applies only" not in output.out + output.err


@settings(max_examples=60)
@given(st.sampled_from([AIME, GSM8K, ARC]), st.data())
def test_a_damaged_file_is_read_or_refused_in_one_sentence(path, data):
    content = bytearray(path.read_bytes())
    at = data.draw(st.integers(4, len(content) - 1))
    content[at:at + 8] = data.draw(st.binary(min_size=1, max_size=8))
    try:
        parsed = read_problems(bytes(content), budget=Budget())
    except (FormatError, TooLarge) as error:
        assert str(error).endswith(".")
    else:
        assert all(0 <= problem.c <= problem.n for problem in parsed.problems)


def test_each_row_is_a_problem_even_when_two_splits_repeat_an_id():
    parsed = read_problems(parquet(new_rows([0.5, 1.0, 0.25], ids=["0", "1", "0"])))
    assert counts(parsed) == [("0", 4, 2), ("1", 4, 4), ("0", 4, 1)]
    assert parsed.warnings == ['1 task id appears more than once and each row was kept as its own problem: "0".']
