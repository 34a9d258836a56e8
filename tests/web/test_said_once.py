"""Each thing is said once, in the place it applies (issue 18, item 2): a note shared by several rows, runs or pairs
appears one time; long explanations and big tables sit behind disclosures below the answer."""

import io
import re
from html import unescape
from pathlib import Path

from passk.writing.display import percent

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "samples.jsonl_results.jsonl"


def text_of(html):
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def benchmark_page(client, ks="1, 10, 100, 300"):
    with EXAMPLE.open("rb") as file:
        response = client.post("/benchmark", data={"file": (file, EXAMPLE.name), "k": ks},
                               content_type="multipart/form-data")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_each_undefined_k_and_each_fixed_se_note_is_said_once_on_the_benchmark_page(client):
    text = text_of(benchmark_page(client))
    for sentence in ("pass@100 is undefined: all 40 problems have fewer than 100 samples",
                     "pass@300 is undefined: all 40 problems have fewer than 300 samples",
                     "The fixed-benchmark SE for k = 10 needs n ≥ 20"):
        assert text.count(sentence) == 1, sentence
    # The planner names the ks it has no plan for and points to the table's notes instead of repeating them.
    assert "No plan for k = 10, k = 100, k = 300: see the notes under the table above." in text
    assert text.count("k = 1 ") >= 1 and 'id="plan-k-1"' in benchmark_page(client)


def test_planning_and_the_per_problem_table_are_disclosures_closed_until_asked(client):
    html = benchmark_page(client, "1, 10")
    assert re.search(r'<details class="disclosure" id="planning">', html)
    assert re.search(r'<details class="disclosure" id="per-problem-section">', html)
    asked = client.post("/benchmark", data={"text": "A,10,3\nB,10,0\n", "k": "1", "target": "2"})
    assert '<details class="disclosure" id="planning" open>' in asked.get_data(as_text=True)


def test_a_k_no_run_reaches_is_one_sentence_not_a_table_of_runs_and_pairs(client):
    runs = {f"text_{run}": "".join(f"T/{i},20,{(i * shift) % 21}\n" for i in range(12))
            for run, shift in (("a", 3), ("b", 5), ("c", 7))}
    html = client.post("/compare", data={**runs, "k": "1, 100"}).get_data(as_text=True)
    text = text_of(html)
    assert text.count("pass@100 is undefined") == 1
    assert "For every run, pass@100 is undefined: all 12 problems have fewer than 100 samples" in text
    assert 'id="ranking-table-100"' not in html and 'id="pairs-table-100"' not in html
    assert 'id="ranking-table-1"' in html and 'id="pairs-table-1"' in html


def test_two_runs_say_an_undefined_k_once(client):
    runs = {f"text_{run}": "".join(f"T/{i},20,{(i * shift) % 21}\n" for i in range(12)) for run, shift in (("a", 3), ("b", 5))}
    text = text_of(client.post("/compare", data={**runs, "k": "1, 100"}).get_data(as_text=True))
    assert text.count("pass@100 is undefined") == 1


def test_a_share_link_names_no_problems_it_does_not_carry(client):
    page = client.post("/benchmark", data={"text": "HumanEval/19,10,3\nHumanEval/23,10,0\nHumanEval/5,4,4\n",
                                            "k": "1, 5"}).get_data(as_text=True)
    assert "HumanEval/5" in text_of(page)   # the page that read the ids names them
    link = unescape(re.search(r'id="share-link" href="([^"]+)"', page)[1])
    shared = text_of(client.get("/" + link.split("://", 1)[1].split("/", 1)[1]).get_data(as_text=True))
    assert "pass@5 is undefined: 1 of 3 problems has fewer than 5 samples, and every problem needs n ≥ 5." in shared
    assert not re.search(r"problem [0-9]+,|\(problem [0-9]", shared) and "HumanEval" not in shared


def test_the_per_problem_table_writes_every_percentage_with_the_same_places(client):
    html = client.post("/benchmark", data={"text": "A,10,4\nB,10,0\nC,10,10\n", "k": "1"}).get_data(as_text=True)
    table = re.search(r'<table id="per-problem".*?</table>', html, re.S)[0]
    cells = [unescape(cell) for cell in re.findall(r"<td[^>]*>([^<]*%)</td>", table)]
    assert cells == ["40.00%", "40.00%", "40.00%", "0.00%", "0.00%", "0.00%", "100.00%", "100.00%", "100.00%"]
    assert percent(0.0) == "0%" and percent(0.0, fixed=True) == "0.00%"   # only tables ask for the places


def test_every_pair_waits_behind_a_disclosure_from_four_runs_on(client):
    def pairs_details(runs):
        data = {f"text_{run}": "".join(f"T/{i},20,{(i * shift) % 21}\n" for i in range(12))
                for run, shift in zip("abc", (3, 5, 7))}
        extra = [("model-d.csv", "".join(f"T/{i},20,{(i * 11) % 21}\n" for i in range(12)))][:runs - 3]
        if extra:
            data["run"] = [(io.BytesIO(text.encode()), name) for name, text in extra]
        html = client.post("/compare", data={**data, "k": "1"}, content_type="multipart/form-data").get_data(as_text=True)
        return re.search(r'<details class="disclosure pairs" id="pairs-k-1"( open)?>', html)
    assert pairs_details(3)[1] == " open"   # three pairs are read at a glance
    assert pairs_details(4)[1] is None      # six wait behind their summary
