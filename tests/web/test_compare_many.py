"""The compare page and POST /api/v1/compare with three runs or more: ranked per k, every pair, the groups,
the forest plot, and the planner for the top two (issue 9 §2, §3)."""

import io
import json
import re
from html import unescape

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from passk.results.benchmark import compare
from passk.writing.display import p_value, percent, unbreakable
from passk.formats import read_problems
from passk.limits import LIMITS
from passk.results.planner import comparison_plan
from passk.results.ranking import rank_runs

# Run B is far ahead; runs A and C are close. C lacks t0 and has t30, which no other run has.
STRONG = "".join(f"t{i},20,{15 + i % 6}\n" for i in range(30))
WEAK = "".join(f"t{i},20,{2 + i % 5}\n" for i in range(30))
WEAKER = "".join(f"t{i},20,{2 + (i * 3) % 5 - (i % 7 == 0)}\n" for i in range(1, 31))
PASTED = {"text_a": WEAK, "text_b": STRONG, "text_c": WEAKER, "k": "1, 10"}


def page(client, data, files=()):
    """POST /compare with the form `data` and the "More runs" files [(name, text)]; (status, unescaped html)."""
    data = dict(data)
    if files:
        data["run"] = [(io.BytesIO(text.encode()), name) for name, text in files]
    response = client.post("/compare", data=data, content_type="multipart/form-data")
    return response.status_code, unescape(response.get_data(as_text=True))


def table_rows(html, table_id):
    """[[cell texts]] of a table's body rows, tags stripped."""
    body = re.search(rf'<table[^>]*id="{table_id}".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def alert(html):
    return re.search(r'role="alert">([^<]*)<', html).group(1)


def expected_ranking(ks=(1, 10)):
    runs = [("Run A", WEAK), ("Run B", STRONG), ("Run C", WEAKER)]
    return rank_runs([(name, read_problems(text).problems) for name, text in runs], list(ks))


def test_three_pasted_runs_are_ranked_best_first_with_their_group_letters(client):
    status, html = page(client, PASTED)
    assert status == 200 and "3 runs ranked" in html and 'id="compare-table"' not in html
    rows = table_rows(html, "ranking-table-1")
    assert [(row[0], row[1], row[5]) for row in rows] == [("1", "Run B", "a"), ("2", "Run A", "b"), ("3", "Run C", "b")]
    assert rows[0][2] == percent(sum(15 + i % 6 for i in range(30)) / 600)   # 87.50%: the mean of c/n
    assert rows[1][2] == "20.00%"
    for row, expected in zip(rows, expected_ranking().results[0].ranking):
        assert row[4] == f"{percent(expected.ci95[0])} to {percent(expected.ci95[1])}"
    assert "runs that share a letter cannot be told apart at the 5% level, after Holm's adjustment" in html


def test_every_pair_shows_its_p_value_and_holm_adjusted_p_value(client):
    _, html = page(client, PASTED)
    rows = {row[0]: row for row in table_rows(html, "pairs-table-1") if len(row) == 7}
    assert list(rows) == ["Run A − Run B", "Run A − Run C", "Run B − Run C"]
    pairs = {f"{pair.a} − {pair.b}": pair for pair in expected_ranking().results[0].pairs}
    for name, row in rows.items():
        assert row[4] == unbreakable(p_value(pairs[name].p_value)) and row[5] == unbreakable(p_value(pairs[name].p_holm))
        assert row[6] == str(pairs[name].paired)
    # Holm: the smallest of the three p-values is multiplied by 3, the largest is left as it is.
    smallest = min(pairs.values(), key=lambda pair: pair.p_value)
    assert smallest.p_holm == pytest.approx(3 * smallest.p_value, rel=1e-12)
    assert rows["Run A − Run C"][5] == rows["Run A − Run C"][4] == "0.645"   # the largest p: Holm keeps it
    assert rows["Run A − Run C"][6] == "29" and rows["Run A − Run B"][6] == "30"


def test_few_paired_problems_say_they_are_too_few(client):
    small = {"text_a": "x,10,3\ny,10,5\nz,10,10\n", "text_b": "x,10,1\ny,10,5\nz,10,7\n",
             "text_c": "x,10,2\ny,10,2\nz,10,2\n", "k": "1"}
    _, html = page(client, small)
    assert "Too few problems for any conclusion: with 3 paired problems" in html


def test_the_problems_left_out_of_each_pair_are_listed_per_pair(client):
    _, html = page(client, PASTED)
    left_out = re.search(r'id="left-out".*?</section>', html, re.S).group(0)
    items = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", item)).strip() for item in re.findall(r"<li[^>]*>(.*?)</li>", left_out, re.S)]
    assert items == ["Run A − Run C: only in Run A: t0; only in Run C: t30.",
                     "Run B − Run C: only in Run B: t0; only in Run C: t30."]


def test_more_than_twenty_left_out_problems_are_counted(client):
    extra = STRONG + "".join(f"x{i},20,3\n" for i in range(25))
    _, html = page(client, {**PASTED, "text_b": extra})
    assert re.search(r"only in Run B: x0, x1, .*?, x19 and 5 more", html)
    assert "x20" not in re.search(r'id="left-out".*?</section>', html, re.S).group(0)


def test_uploaded_runs_are_named_after_their_files(client):
    status, html = page(client, {"text_a": WEAK, "text_b": "", "k": "1"},
                        files=[("strong-model.csv", STRONG), ("other.csv", WEAKER)])
    assert status == 400 and alert(html) == "Run B is empty: paste its results or choose its file."
    status, html = page(client, {"text_a": WEAK, "text_b": WEAKER, "k": "1"},
                        files=[("strong-model.csv", STRONG)])
    assert status == 200
    assert [row[1] for row in table_rows(html, "ranking-table-1")] == ["strong-model.csv", "Run A", "Run B"]
    csv = "CSV (task_id,n,c, n,c or task_id,passed rows)"   # each layout named as the benchmark page names it
    assert f"Read Run A as {csv} (30 problems), Run B as {csv} (30 problems), strong-model.csv as {csv} (30 problems)." \
        in re.sub(r"<[^>]+>", "", html)


def test_two_runs_keep_the_two_run_page(client):
    status, html = page(client, {"text_a": WEAK, "text_b": STRONG, "k": "1"}, files=[])
    assert status == 200 and 'id="compare-table"' in html and 'id="ranking-result"' not in html


def test_a_forest_plot_per_k_has_a_row_per_run_and_names_its_numbers(client):
    _, html = page(client, PASTED)
    for k in (1, 10):
        figure = re.search(rf'<figure[^>]*id="interval-chart-{k}".*?</figure>', html, re.S).group(0)
        assert re.findall(r'<g class="run-row" data-run="([^"]*)"', figure) == ["Run B", "Run A", "Run C"]
        assert figure.count('class="run-dot"') == 3 and figure.count('class="whisker"') == 9
        description = re.search(r"<desc[^>]*>(.*?)</desc>", figure, re.S).group(1)
        assert description.startswith(f"pass@{k} of 3 runs, best first: Run B, pass@{k}: ")
    assert "87.50% (95% interval" in html


def test_over_the_run_limit_is_a_message_with_the_form_kept(client):
    files = [(f"run{i}.csv", WEAK) for i in range(LIMITS.runs - 1)]
    status, html = page(client, {**PASTED, "difference": "3"}, files=files)
    assert status == 400
    assert alert(html) == f"Too many runs ({LIMITS.runs + 2}): rank at most {LIMITS.runs} at once."
    assert f">{WEAK}</textarea>" in html and f">{WEAKER}</textarea>" in html
    assert 'id="difference" name="difference" type="text" inputmode="decimal" value="3"' in html
    status, _ = page(client, PASTED, files=files[:LIMITS.runs - 3])   # exactly LIMITS.runs
    assert status == 200


@pytest.mark.parametrize("field, value, message", [
    ("difference", "abc", "The difference to detect (points) must be from 0.001 to 100; got 'abc'."),
    ("difference", "150", "The difference to detect (points) must be from 0.001 to 100; got '150'."),
    ("tokens_per_sample", "-5", "Tokens per sample must be a number above 0, at most 1,000,000,000,000; got '-5'."),
    ("price_per_million", "free",
     "The price per million tokens must be a number above 0, at most 1,000,000,000,000; got 'free'."),
])
@pytest.mark.parametrize("runs", [PASTED, {"text_a": WEAK, "text_b": STRONG}], ids=["three runs", "two runs"])
def test_a_bad_planning_field_is_a_400_naming_it_with_the_form_kept(client, runs, field, value, message):
    status, html = page(client, {**runs, field: value})
    assert status == 400 and alert(html) == message
    assert f'id="{field}" name="{field}" type="text" inputmode="decimal" value="{value}"' in html
    assert f">{WEAK}</textarea>" in html and f">{STRONG}</textarea>" in html


def test_the_planner_speaks_of_the_top_two_runs_only(client):
    _, html = page(client, {**PASTED, "difference": "5"})
    planning = re.search(r'id="compare-planning".*?</section>', html, re.S).group(0)
    assert re.findall(r'class="note planning-pair" data-k="\d+">([^<]*)<', planning) == \
        ["At pass@1: Run B against Run A, the best two.", "At pass@10: Run B against Run A, the best two."]
    problems_b, problems_a = read_problems(STRONG).problems, read_problems(WEAK).problems
    plans = comparison_plan(compare(problems_b, problems_a, [1, 10]), difference=0.05)
    assert [re.sub(r"<[^>]+>", "", item) for item in re.findall(r"<li>(.*?)</li>", planning)] == \
        [sentence for plan in plans for sentence in plan["sentences"]]
    assert "paired problems would find a difference of 5.00 points" in planning
    assert "Run C" not in planning


def test_the_two_run_planner_finds_the_problems_for_a_difference(client):
    status, html = page(client, {"text_a": WEAK, "text_b": WEAKER, "k": "1", "difference": "2"})
    problems_a, problems_b = read_problems(WEAK).problems, read_problems(WEAKER).problems
    (plan,) = comparison_plan(compare(problems_a, problems_b, [1]), difference=0.02)
    assert status == 200 and plan["problems"] > 29
    assert f"About {plan['problems']:,} paired problems would find a difference of 2.00 points 4 times in 5." in html


# The API


def api(client, **fields):
    return client.post("/api/v1/compare", content_type="multipart/form-data", data=fields)


def upload(text, name):
    return io.BytesIO(text.encode()), name


def test_the_two_run_answer_gains_a_planner_only_when_a_difference_is_sent(client):
    plain = api(client, a=upload(WEAK, "a.csv"), b=upload(STRONG, "b.csv"), k="1").json
    assert list(plain) == ["paired", "only_in_a", "only_in_b", "results", "warnings"]
    body = api(client, a=upload(WEAK, "a.csv"), b=upload(STRONG, "b.csv"), k="1, 10", difference="5").json
    assert list(body) == ["paired", "only_in_a", "only_in_b", "results", "warnings", "planner"]
    assert {key: body[key] for key in plain if key != "results"} == {key: plain[key] for key in plain if key != "results"}
    problems_a, problems_b = read_problems(WEAK).problems, read_problems(STRONG).problems
    plans = comparison_plan(compare(problems_a, problems_b, [1, 10]), difference=0.05)
    assert [row["k"] for row in body["planner"]] == [1, 10]
    for row, plan in zip(body["planner"], plans):
        assert row["detectable"] == pytest.approx(plan["detectable"], rel=1e-12)
        assert row["problems"] == plan["problems"] and isinstance(row["problems"], int)
        assert row["samples"] == plan["samples"] and row["sentences"] == plan["sentences"]


def test_the_ranking_answer_gains_a_planner_for_the_top_two_runs(client):
    runs = [upload(WEAK, "weak.csv"), upload(STRONG, "strong.csv"), upload(WEAKER, "weaker.csv")]
    plain = api(client, run=runs, k="1").json
    assert list(plain) == ["runs", "results", "warnings"]
    runs = [upload(WEAK, "weak.csv"), upload(STRONG, "strong.csv"), upload(WEAKER, "weaker.csv")]
    body = api(client, run=runs, k="1", difference="5").json
    assert list(body) == ["runs", "results", "warnings", "planner"]
    problems_b, problems_a = read_problems(STRONG).problems, read_problems(WEAK).problems
    (plan,) = comparison_plan(compare(problems_b, problems_a, [1]), difference=0.05)
    assert body["planner"] == [{"k": 1, "a": "strong.csv", "b": "weak.csv", "plan": plan,
                                "reason": None}]


@pytest.mark.parametrize("value", ["abc", "0", "-2", "101", "nan"])
def test_a_bad_difference_is_a_400_sentence_from_the_api(client, value):
    response = api(client, a=upload(WEAK, "a.csv"), b=upload(STRONG, "b.csv"), difference=value)
    assert response.status_code == 400
    assert response.json == {"error": f"The difference to detect (points) must be from 0.001 to 100; got {value!r}."}
    runs = [upload(WEAK, "weak.csv"), upload(STRONG, "strong.csv"), upload(WEAKER, "weaker.csv")]
    response = api(client, run=runs, difference=value)
    assert response.status_code == 400 and response.json["error"].startswith("The difference to detect (points)")


@pytest.mark.parametrize("text_c, message", [
    ("t1,10,11\n", "Run C: Line 1"),
    ("t1,10,3\nt1,10,4\n", "Run C lists task t1 twice"),
])
def test_a_bad_third_run_is_named_once(client, text_c, message):
    status, html = page(client, {**PASTED, "text_c": text_c})
    assert status == 400 and alert(html).startswith(message) and "Run Run" not in html


def test_runs_without_task_ids_are_named_once_in_the_warning(client):
    status, html = page(client, {"text_a": "10 3\n10 5\n10 1\n", "text_b": "10 4\n10 6\n10 2\n",
                                 "text_c": "10 2\n10 2\n10 2\n", "k": "1"})
    assert status == 200 and "Run A, Run B and Run C had no task ids" in html and "Runs Run" not in html


def test_the_two_run_page_says_what_more_samples_buy_without_any_planning_field(client):
    """The comparison carries its paired counts, so the answers on these very problems need no second reading."""
    status, html = page(client, {"text_a": WEAK, "text_b": WEAKER, "k": "1"})
    problems_a, problems_b = read_problems(WEAK).problems, read_problems(WEAKER).problems
    (plan,) = comparison_plan(compare(problems_a, problems_b, [1]))
    assert status == 200 and plan["detectable_floor"] is not None and plan["noise_share"] is not None
    assert f"{plan['detectable_fixed'] * 100:.2f} points at pass@1 4 times in 5." in html
    assert plan["sentences"][-1] in html and "sampling noise" in plan["sentences"][-1].lower()


def test_typed_names_name_the_runs_and_are_kept_and_escaped(client):
    data = {**PASTED, "name_a": "gpt-weak", "name_b": "<b>strong</b>", "name_c": ""}
    status, html = page(client, data, files=[("model-d.csv", WEAK)])
    rows = table_rows(html, "ranking-table-1")
    assert status == 200 and [row[1] for row in rows] == ["strong", "gpt-weak", "model-d.csv", "Run C"]   # tags stripped
    raw = client.post("/compare", data=data, content_type="multipart/form-data").get_data(as_text=True)
    assert "<b>strong</b>" not in raw and "&lt;b&gt;strong&lt;/b&gt;" in raw
    status, html = page(client, {**data, "text_c": "t1,10,11\n"})
    assert status == 400 and 'value="gpt-weak"' in html


def test_two_named_runs_say_their_names_in_the_pairing_sentence(client):
    status, html = page(client, {"text_a": WEAK, "text_b": STRONG, "k": "1", "name_a": "small", "name_b": "large"})
    pairing = re.search(r'id="pairing">(.*?)</p>', html, re.S).group(1)
    assert status == 200 and "run A (small) as" in re.sub(r"<[^>]+>", "", pairing) and "run B (large)" in pairing


# Hostile or odd input: any mix of runs, names and planning fields is a page or a 400 sentence, never a 500.

RUN_TEXTS = st.one_of(st.text(max_size=80), st.sampled_from([WEAK, STRONG, WEAKER, "10 3\n10 5\n", "t1,10,11\n", ""]))
FIELD_TEXTS = st.one_of(st.text(max_size=12), st.sampled_from(["1", "0.001", "1e-300", "1e308", "nan", "-2", "100"]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(texts=st.lists(RUN_TEXTS, min_size=2, max_size=3), names=st.lists(st.text(max_size=20), max_size=3),
       k=st.sampled_from(["1", "1, 10", "", "0", "x"]), difference=FIELD_TEXTS, tokens=FIELD_TEXTS, price=FIELD_TEXTS)
def test_no_compare_input_is_a_server_error(app, texts, names, k, difference, tokens, price):
    client = app.test_client()
    data = {f"text_{run}": text for run, text in zip("abc", texts)}
    data.update({f"name_{run}": name for run, name in zip("abc", names)})
    data.update(k=k, difference=difference, tokens_per_sample=tokens, price_per_million=price)
    page = client.post("/compare", data=data)
    assert page.status_code in (200, 400)
    if page.status_code == 400:
        assert 'role="alert"' in page.get_data(as_text=True)
    files = [(io.BytesIO(text.encode("utf-8", "surrogatepass")), f"r{index}.csv") for index, text in enumerate(texts)]
    answer = client.post("/api/v1/compare", content_type="multipart/form-data",
                         data={"run": files, "k": k, "difference": difference, "tokens_per_sample": tokens,
                               "price_per_million": price})
    assert answer.status_code in (200, 400) and answer.is_json
    # standard JSON: no Infinity or NaN as a value (a message may quote them as the input it refuses)
    json.loads(answer.get_data(as_text=True), parse_constant=lambda name: pytest.fail(f"{name} as a JSON value"))
