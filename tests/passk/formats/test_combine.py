"""Several files that are parts of one run, read as one (passk.formats.read_files)."""

import pytest

from passk.formats import FormatError, Problem, read_files


def test_files_of_different_problems_make_one_run():
    parsed = read_files([("a.txt", "A 10 3\nB 10 0\n"), ("b.txt", "C 10 10\n")])
    assert parsed.problems == [Problem("A", 10, 3), Problem("B", 10, 0), Problem("C", 10, 10)]
    assert parsed.combined == "2 files combined into one run of 3 problems: each problem was in one file."
    assert parsed.warnings == []


def test_repeats_of_a_run_add_up_per_task_id():
    runs = [("run1.csv", "task_id,n,c\nx,1,1\ny,1,0\n"), ("run2.csv", "task_id,n,c\ny,1,1\nx,1,1\n"),
            ("run3.csv", "task_id,n,c\nx,1,0\n")]
    parsed = read_files(runs)
    assert parsed.problems == [Problem("x", 3, 2), Problem("y", 2, 1)]
    assert "each problem's samples in every file were added up" in parsed.combined
    assert parsed.warnings == ['1 of 2 problems are in only some of the 3 files (such as "y"); '
                               "they have fewer samples than the others."]


def test_one_file_reads_as_itself():
    parsed = read_files([("a.txt", "A 10 3\n")])
    assert parsed.problems == [Problem("A", 10, 3)] and parsed.combined == ""


@pytest.mark.parametrize(("files", "fragments"), [
    ([("a.txt", "10 3\n"), ("b.txt", "10 4\n")], ["a.txt has no task ids", "task_id n c"]),
    ([("a.txt", "A 10 3\n"), ("b.json", '[{"task_id": "B", "n": 2, "c": 1}]')],
     ["share a layout", "a.txt (text", "b.json (JSON"]),
    ([("a.txt", "A 10 3\n"), ("b.txt", "B 10 11\n")], ["b.txt: Line 1", "c = 11 is larger than n = 10"]),
    ([("a.txt", "A 10 3\n"), ("b.txt", "")], ["b.txt: The input is empty"]),
])
def test_errors_name_the_file(files, fragments):
    with pytest.raises(FormatError) as caught:
        read_files(files)
    for fragment in fragments:
        assert fragment in str(caught.value)


def test_the_problem_limit_counts_all_files():
    files = [(f"{index}.txt", f"T{index}a 1 1\nT{index}b 1 0\n") for index in range(3)]
    assert len(read_files(files, max_problems=6).problems) == 6
    with pytest.raises(FormatError, match="more than 5 problems"):
        read_files(files, max_problems=5)
