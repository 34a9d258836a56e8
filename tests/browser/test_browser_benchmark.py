"""The benchmark and compare pages in a real Chromium: paste, upload, share link, download, sorting."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from where import FIXTURES

pytestmark = pytest.mark.browser


def results_row(page, k, table="#results-table"):
    return page.locator(f'{table} tr[data-k="{k}"]')


def test_pasted_counts_show_pass_at_k_with_error_bars(page):
    page.goto("/benchmark")
    page.locator("#text").fill("10 3\n10 0\n")
    page.locator("#k").fill("1, 5")
    page.get_by_role("button", name="Calculate").click()
    expect(results_row(page, 5)).to_contain_text("45.83%")
    expect(results_row(page, 1)).to_contain_text("15.00%")
    expect(page.locator("#status-counts")).to_contain_text("1 broken")
    expect(page.locator("#histogram svg")).to_be_visible()


def test_uploading_a_humaneval_file_shows_every_problem(page, tmp_path):
    lines = [{"task_id": f"HumanEval/{i % 4}", "completion": "  return 1\n", "passed": i % 3 == 0}
             for i in range(40)]
    path = tmp_path / "samples.jsonl_results.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    page.goto("/benchmark")
    page.locator("#file").set_input_files(str(path))
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#summary")).to_contain_text("4 problems, 40 samples")
    expect(page.locator("#per-problem tbody tr")).to_have_count(4)
    expect(results_row(page, 100)).to_contain_text("fewer than 100")


def test_share_link_reproduces_the_numbers_in_a_new_page(page, context):
    page.goto("/benchmark")
    page.locator("#text").fill("200 57\n200 0\n200 200\n200 3\n")
    page.get_by_role("button", name="Calculate").click()
    headline = results_row(page, 10).locator("td.value")
    expect(headline).to_be_visible()
    value = headline.inner_text()
    link = page.locator("#share-link").get_attribute("href")
    shared = context.new_page()
    shared.goto(link)
    expect(results_row(shared, 10).locator("td.value")).to_have_text(value)


def test_csv_download_has_a_row_per_problem(page):
    page.goto("/benchmark")
    page.locator("#text").fill("A,10,3\nB,10,0\nC,10,10\n")
    page.get_by_role("button", name="Calculate").click()
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download per-problem CSV").click()
    download = download_info.value
    assert download.suggested_filename == "passk-per-problem.csv"
    lines = Path(download.path()).read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("task_id,n,c,status,pass@1") and len(lines) == 4
    assert lines[2].startswith("B,10,0,broken,0.0")


def test_bad_paste_shows_the_line_and_keeps_the_text(page):
    page.goto("/benchmark")
    page.locator("#text").fill("10 3\n10 eleven\n")
    page.get_by_role("button", name="Calculate").click()
    expect(page.get_by_role("alert")).to_contain_text("Line 2")
    expect(page.locator("#text")).to_have_value("10 3\n10 eleven\n")


def test_per_problem_table_sorts_by_a_column(page):
    page.goto("/benchmark")
    page.locator("#text").fill("A,10,3\nB,10,0\nC,10,10\n")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#per-problem")).to_be_hidden()   # behind its disclosure, below the answer
    page.get_by_text("Per problem", exact=True).click()
    page.locator("#per-problem thead").get_by_role("button", name="c", exact=True).click()
    expect(page.locator("#per-problem tbody tr").first).to_contain_text("B")
    page.locator("#per-problem thead").get_by_role("button", name="c", exact=True).click()
    expect(page.locator("#per-problem tbody tr").first).to_contain_text("C")


def test_mode_switch_links_both_pages(page):
    page.goto("/benchmark")
    page.get_by_role("navigation", name="Mode").get_by_role("link", name="Single problem").click()
    expect(page.locator("#calculator")).to_be_visible()
    page.get_by_role("navigation", name="Mode").get_by_role("link", name="Benchmark").click()
    expect(page.locator("#benchmark-form")).to_be_visible()


def test_comparing_two_pasted_runs(page):
    page.goto("/compare")
    page.locator("#text_a").fill("A,10,3\nB,10,5\nC,10,10\nD,10,1\n")
    page.locator("#text_b").fill("A,10,1\nB,10,5\nC,10,7\nE,10,2\n")
    page.locator("#k").fill("1")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator('#compare-table tr[data-k="1"]')).to_contain_text("+16.67 pts")
    expect(page.locator("#only-in-a")).to_contain_text("D")
    expect(page.locator("#difference-chart svg")).to_be_visible()


def humaneval_file(tmp_path):
    lines = [{"task_id": f"HumanEval/{i % 4}", "completion": "  return 1\n", "passed": i % 3 == 0}
             for i in range(40)]
    path = tmp_path / "samples_results.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def change_k_after_an_upload(page, path):
    page.goto("/benchmark")
    page.locator("#file").set_input_files(str(path))
    page.locator("#k").fill("1")
    page.get_by_role("button", name="Calculate").click()
    expect(results_row(page, 1)).to_be_visible()
    expect(page.locator("#file")).to_have_value("")   # the browser forgot the file
    page.locator("#k").fill("1, 5")
    page.get_by_role("button", name="Calculate").click()
    expect(results_row(page, 5)).to_contain_text("%")
    expect(page.get_by_role("alert")).to_have_count(0)
    expect(page.locator("#summary")).to_contain_text("4 problems, 40 samples")
    expect(page.locator("#carried-counts")).to_contain_text(
        "Results from samples_results.jsonl (4 problems) — choose another file")


def test_changing_k_after_an_upload_keeps_the_file(page, tmp_path):
    change_k_after_an_upload(page, humaneval_file(tmp_path))


def test_changing_k_after_an_upload_keeps_the_file_without_javascript(new_context, tmp_path):
    page = new_context(java_script_enabled=False).new_page()
    change_k_after_an_upload(page, humaneval_file(tmp_path))


def test_switching_the_evalplus_suite_after_an_upload(page, tmp_path):
    path = tmp_path / "eval_results.json"
    path.write_text(json.dumps({"eval": {
        "A": [{"base_status": "pass", "plus_status": "pass"}, {"base_status": "pass", "plus_status": "fail"}],
        "B": [{"base_status": "fail", "plus_status": "fail"}, {"base_status": "pass", "plus_status": "timeout"}]}}))
    page.goto("/benchmark")
    page.locator("#file").set_input_files(str(path))
    page.locator("#k").fill("1")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#benchmark-heading")).to_have_text("Results — EvalPlus plus")
    page.locator("#suite").fill("base")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#benchmark-heading")).to_have_text("Results — EvalPlus base")
    expect(results_row(page, 1)).to_contain_text("75.00%")
    expect(results_row(page, 1, "#results-table-plus")).to_contain_text("25.00%")


def test_a_suite_chosen_for_a_humaneval_file_is_warned_about(page, tmp_path):
    page.goto("/benchmark")
    page.locator("#file").set_input_files(str(humaneval_file(tmp_path)))
    page.locator("#suite").fill("base")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#warnings")).to_contain_text(
        "The suite choice names a run only in files of EvalPlus (base or plus), NeMo-Skills (human-eval's base or "
        "plus, IFEval's strict or loose), lm-evaluation-harness (a filter), lighteval (a metric), eval-arena (a "
        "model) and Inspect (a scorer's key); this is a human-eval file, so it was ignored.")


def test_choosing_several_files_of_one_run_combines_them(page, tmp_path):
    """MultiPL-E writes one file a problem: choosing them together gives one run, and the page says how."""
    paths = []
    for problem, statuses in enumerate([["OK", "OK", "Exception"], ["SyntaxError", "OK", "OK", "OK"]]):
        paths.append(tmp_path / f"HumanEval_{problem}_task.results.json")
        paths[-1].write_text(json.dumps({
            "name": f"HumanEval_{problem}_task", "language": "py", "prompt": "def f():\n", "tests": "assert f()",
            "stop_tokens": ["\ndef"], "results": [{"program": "", "timestamp": 0, "stdout": "", "stderr": "",
                                                   "exit_code": 0 if status == "OK" else 1, "status": status}
                                                  for status in statuses]}))
    page.goto("/benchmark")
    page.locator("#file").set_input_files([str(path) for path in paths])
    page.locator("#k").fill("1")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#summary")).to_contain_text("2 problems, 7 samples")
    expect(page.locator("#read-as")).to_have_text("MultiPL-E *.results.json(.gz), one problem a file")
    expect(page.locator("#combined")).to_have_text(
        "2 files combined into one run of 2 problems: each problem was in one file.")
    expect(results_row(page, 1)).to_contain_text("70.83%")   # (2/3 + 3/4) / 2


def test_nemo_skills_seed_files_show_maj_at_k_and_g_pass_with_the_tie_rule_chosen(page):
    seeds = [str(FIXTURES / "nemoskills" / f"output-rs{seed}.jsonl") for seed in range(3)]
    page.goto("/benchmark")
    page.locator("#file").set_input_files(seeds)
    page.locator("#k").fill("1, 2")   # one problem has two seeds' samples
    page.get_by_label("maj@k tie").select_option("wrong")
    page.get_by_label("G-Pass@k τ").fill("0.5")
    page.get_by_label("G-Pass@k τ").press("Enter")   # the keyboard submits the form, as the button does
    expect(page.locator("#majority-heading")).to_be_visible()
    expect(page.locator("#majority")).to_contain_text("A tied vote counts as wrong.")
    # maj@2 over every pair of samples, a tie scoring 0: 1/9 (fractional credit would give 7/18)
    expect(page.locator('#majority-table tr[data-k="2"] td.value')).to_have_attribute("title", repr(1 / 9))
    expect(page.locator("#g-pass-heading")).to_have_text("G-Pass@k at τ = 0.5")
    expect(page.locator("#k-curve .marker-majority")).to_have_count(2)
    expect(page.get_by_label("maj@k tie")).to_have_value("wrong")   # the form keeps what was chosen
