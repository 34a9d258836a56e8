"""The single-problem page and its JSON twin, through Flask's test client."""

import gc
import re
from fractions import Fraction
from html import unescape
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from html_text import element_text
from passk.results.calculator import calculate
from passk.writing.answers import to_json

BAD_INPUTS = [
    # (query string, field, message fragment)
    ("n=&c=3&k=1", "n", "Enter n"),
    ("c=3&k=1", "n", "Enter n"),
    ("n=abc&c=3&k=1", "n", "whole number"),
    ("n=3.5&c=3&k=1", "n", "whole number"),
    ("n=10&c=-1&k=1", "c", "whole number"),
    ("n=1e3&c=3&k=1", "n", "whole number"),
    ("n=" + "1" + "0" * 30 + "&c=3&k=1", "n", "at most 1,000,000,000,000"),
    ("n=10&c=11&k=1", "c", "from 0 to n (10)"),
    ("n=10&c=3&k=11", "k", "cannot draw more samples than you generated"),
    ("n=10&c=3&k=0", "k", "at least 1"),
    ("n=10&n=20&c=3&k=1", "n", "given 2 times"),
    ("n=10&c=3%00&k=1", "c", "whole number"),
    ("n=%3Cscript%3Ealert(1)%3C/script%3E&c=3&k=1", "n", "whole number"),
    ("n=10&c=3&k=1&ks=2,x", "ks", "Extra k values"),
    ("n=0&c=0&k=1", "n", "at least 1"),
]


def field_error(html, name):
    match = re.search(rf'id="{name}-error" role="alert">([^<]*)<', html)
    return unescape(match.group(1)) if match else None


def input_value(html, name):
    match = re.search(rf'<input id="{name}"[^>]*value="([^"]*)"', html, re.S)
    return unescape(match.group(1))


def test_front_page_without_parameters_shows_n10_c3_k1(client):
    html = client.get("/").get_data(as_text=True)
    assert (input_value(html, "n"), input_value(html, "c"), input_value(html, "k")) == ("10", "3", "1")
    assert element_text(html, "pass-at-k") == "30.00%"


def test_worked_example_shows_percentage_fraction_and_exact(client):
    response = client.get("/?n=10&c=3&k=5")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert element_text(html, "pass-at-k") == "91.67%"
    assert "0.9167" in element_text(html, "pass-at-k-fraction")
    assert element_text(html, "exact") == "11/12"
    assert element_text(html, "pass-at-1") == "30.00%"
    assert "16</strong> significant digits" in html


def test_table_has_standard_ks_the_chosen_k_and_extra_ks(client):
    html = client.get("/?n=10&c=3&k=5&ks=2,7").get_data(as_text=True)
    rows = re.findall(r'<tr data-k="(\d+)"', html)
    assert rows == ["1", "2", "5", "7", "10", "100"]
    row_100 = html[html.index('data-k="100"'):]
    assert "n &lt; k" in row_100[:300]


def test_page_has_chart_steps_and_share_link(client):
    html = client.get("/?n=200&c=17&k=10").get_data(as_text=True)
    assert "<svg" in html and 'class="curve"' in html and 'class="marker"' in html
    assert "Worked steps" in html and "(1 − 10/184)" in html and "more factors" in html
    assert re.search(r'id="share-link" href="http://localhost/\?n=200&amp;c=17&amp;k=10"', html)


@pytest.mark.parametrize("query, field, fragment", BAD_INPUTS)
def test_bad_input_keeps_the_form_and_names_the_field(client, query, field, fragment):
    response = client.get("/?" + query)
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert fragment in field_error(html, field)
    assert 'id="result"' not in html
    assert "<script>alert" not in html
    given = dict(pair.split("=", 1) for pair in query.split("&"))
    for name in ("n", "c", "k"):
        if name != field and name in given and given[name].isdigit():
            assert input_value(html, name) == given[name]  # the other values stay in the form


def test_bad_value_is_kept_in_the_form(client):
    html = client.get("/?n=10&c=abc&k=4").get_data(as_text=True)
    assert (input_value(html, "n"), input_value(html, "c"), input_value(html, "k")) == ("10", "abc", "4")


def test_script_in_a_field_is_shown_escaped(client):
    html = client.get("/?n=%3Cscript%3Ealert(1)%3C/script%3E&c=3&k=1").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)" not in html


API_WORDS = {"Enter n": "n (completions per problem) is missing: give n as a whole number, as in ?n=10&c=3&k=5.",
             "Extra k values": "ks (extra k values) must be whole numbers"}


@pytest.mark.parametrize("query, field, fragment", BAD_INPUTS)
def test_api_bad_input_is_400_with_one_sentence(client, query, field, fragment):
    response = client.get("/api/v1/pass-at-k?" + query)
    assert response.status_code == 400
    assert response.is_json and set(response.json) == {"error"}
    assert API_WORDS.get(fragment, fragment) in response.json["error"]
    assert "Enter" not in response.json["error"] and "in the link" not in response.json["error"]


def test_api_has_exactly_the_spec_shape(client):
    body = client.get("/api/v1/pass-at-k?n=10&c=3&k=5&ks=1,2,3").json
    assert list(body) == ["n", "c", "k", "pass_at_k", "pass_at_1", "cross_check", "exact",
                          "pass_hat_k", "biased_pass_at_k", "table"]
    assert body["exact"] == "11/12"
    assert abs(Fraction(body["pass_at_k"]) - Fraction(11, 12)) < Fraction(1, 10**15)
    assert body["pass_at_1"] == 0.3
    assert [row["k"] for row in body["table"]] == [1, 2, 3, 5, 10, 100]
    assert body["table"][-1]["pass_at_k"] is None and "n < k" in body["table"][-1]["reason"]


def test_api_and_page_render_the_same_calculation(client):
    body = client.get("/api/v1/pass-at-k?n=1000&c=37&k=50").json
    assert body == to_json(calculate(1000, 37, 50))
    exact = 1 - Fraction(comb(963, 50), comb(1000, 50))
    assert abs(Fraction(body["pass_at_k"]) - exact) / exact < Fraction(1, 10**13)


@pytest.mark.parametrize("n, c, k", [(200, 57, 10), (10, 3, 4), (1963, 102, 9), (10**12, 10**6, 10**6)])
def test_one_value_for_pass_at_k_in_the_headline_the_table_and_the_api(client, n, c, k):
    """Whatever extra ks the table holds, pass@k is the same float everywhere it is shown."""
    values = set()
    for extra in ("", "&ks=2,30", "&ks=3,20,50,3000"):
        html = client.get(f"/?n={n}&c={c}&k={k}{extra}").get_data(as_text=True)
        values.add(re.search(r'id="pass-at-k" title="([^"]+)"', html).group(1))
        values.add(re.search(rf'<tr data-k="{k}" class="chosen">\s*<th[^>]*>[^<]*</th>\s*<td title="([^"]+)"',
                             html).group(1))
        body = client.get(f"/api/v1/pass-at-k?n={n}&c={c}&k={k}{extra}").json
        values |= {repr(body["pass_at_k"]), *(repr(row["pass_at_k"]) for row in body["table"] if row["k"] == k)}
    assert len(values) == 1


def test_api_answers_huge_inputs(client):
    body = client.get("/api/v1/pass-at-k?n=1000000000000&c=1000000&k=1000000").json
    assert abs(body["pass_at_k"] - 0.6321209267080602) < 1e-12
    assert body["exact"] is None and body["cross_check"] is None


def test_security_headers_on_every_response(client):
    for path in ("/", "/?n=x", "/api/v1/pass-at-k?n=10&c=3&k=5", "/no-such-page", "/static/style.css"):
        response = client.get(path)
        response.close()
        policy = response.headers["Content-Security-Policy"]
        assert "'unsafe-inline'" not in policy and "frame-ancestors 'none'" in policy
        assert "script-src 'self'" in policy
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize("path", ["/", "/?n=10&c=3&k=5", "/?n=x&c=&k=0"])
def test_no_inline_script_style_or_handlers(client, path):
    html = client.get(path).get_data(as_text=True)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert "<style" not in html and " style=" not in html
    assert not re.search(r"\son[a-z]+=", html)


def test_unknown_page_is_a_readable_404(client):
    response = client.get("/nowhere")
    assert response.status_code == 404
    assert "There is no page at /nowhere" in response.get_data(as_text=True)


def test_unknown_api_path_is_json_404(client):
    response = client.get("/api/v1/nothing")
    assert response.status_code == 404 and "error" in response.json


def test_wrong_method_is_not_a_server_error(client):
    assert client.put("/api/v1/pass-at-k").status_code == 405
    assert client.delete("/benchmark").status_code == 405


def test_embed_is_compact_and_the_only_frameable_page(client):
    response = client.get("/embed?n=10&c=3&k=5")
    html = response.get_data(as_text=True)
    assert element_text(html, "pass-at-k") == "91.67%"
    assert 'action="/embed"' in html and 'data-k="100"' in html
    assert "frame-ancestors" not in response.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in response.headers
    assert "http://localhost/?n=10&amp;c=3&amp;k=5" in html
    assert client.get("/?n=10&c=3&k=5").headers["X-Frame-Options"] == "DENY"


def test_main_page_offers_an_iframe_snippet_for_the_current_numbers(client):
    html = client.get("/?n=10&c=3&k=5").get_data(as_text=True)
    assert '&lt;iframe src="http://localhost/embed?n=10&amp;c=3&amp;k=5&amp;theme=auto"' in html


def test_embed_bad_input_is_400_with_the_message(client):
    html = client.get("/embed?n=10&c=30&k=5").get_data(as_text=True)
    assert "from 0 to n (10)" in field_error(html, "c")


EDGE_NS = [1, 2, 3, 10, 33, 34, 65, 1000, 10**12]


@pytest.mark.parametrize("n", EDGE_NS)
def test_every_edge_of_every_n_renders(client, n):
    for c in sorted({0, 1, n // 2, n - 1, n}):
        for k in sorted(k for k in {1, 2, n // 2, n - 1, n, 33} if 1 <= k <= n):
            for path in ("/", "/embed", "/api/v1/pass-at-k"):
                response = client.get(f"{path}?n={n}&c={c}&k={k}")
                assert response.status_code == 200, (path, n, c, k)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["n", "c", "k", "ks"]), st.text(max_size=30), max_size=4))
def test_no_query_string_is_a_server_error(app, query):
    client = app.test_client()
    for path in ("/", "/embed", "/api/v1/pass-at-k"):   # an address with empty fields is sent to the clean one
        assert client.get(path, query_string=query, follow_redirects=True).status_code in (200, 400)


def test_a_304_for_a_static_file_closes_the_file(client):
    first = client.get("/static/style.css")
    first.close()
    again = client.get("/static/style.css", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    del again
    gc.collect()  # an unclosed file would raise ResourceWarning here (warnings are errors)


def test_share_and_embed_links_use_the_configured_public_address():
    from app import create_app

    client = create_app({"TESTING": True, "PUBLIC_URL": "https://passk.example.org/"}).test_client()
    html = client.get("/?n=10&c=3&k=5", headers={"Host": "127.0.0.1:8000"}).get_data(as_text=True)
    assert 'href="https://passk.example.org/?n=10&amp;c=3&amp;k=5"' in html
    assert "https://passk.example.org/embed?n=10" in html and "127.0.0.1" not in html


def test_api_without_any_numbers_names_what_is_missing(client):
    response = client.get("/api/v1/pass-at-k")
    assert response.status_code == 400
    assert response.json["error"].startswith("n (completions per problem) is missing: give n as a whole number")
    assert "k (samples you draw) is missing" in response.json["error"]


def test_twenty_twelve_digit_extra_ks_are_accepted(client):
    ks = ",".join(str(10**11 + i) for i in range(20))
    response = client.get(f"/api/v1/pass-at-k?n=1000000000000&c=5&k=3&ks={ks}")
    assert response.status_code == 200 and len(response.json["table"]) == 25


def test_api_exact_fraction_includes_0_and_1(client):
    assert client.get("/api/v1/pass-at-k?n=10&c=0&k=1").json["exact"] == "0/1"
    assert client.get("/api/v1/pass-at-k?n=10&c=10&k=1").json["exact"] == "1/1"
    assert 'id="exact"' not in client.get("/?n=10&c=0&k=1").get_data(as_text=True)


@pytest.mark.parametrize("body", [{"n": 10, "c": 3, "k": 5}, {"n": 10.0, "c": 3.0, "k": 5.0},
                                  {"n": 1e1, "c": 3, "k": 5}])
def test_api_json_body_takes_whole_numbers_however_written(client, body):
    response = client.post("/api/v1/pass-at-k", json=body)
    assert response.status_code == 200, response.json
    assert response.json == client.get("/api/v1/pass-at-k?n=10&c=3&k=5").json == to_json(calculate(10, 3, 5))


def test_api_json_body_takes_extra_ks(client):
    response = client.post("/api/v1/pass-at-k", json={"n": 10, "c": 3, "k": 5, "ks": [2, 3.0]})
    assert response.json == client.get("/api/v1/pass-at-k?n=10&c=3&k=5&ks=2,3").json


@pytest.mark.parametrize("body, message", [
    ({"n": "10", "c": 3, "k": 5},
     'n (completions per problem) must be a JSON number, not a string: send 10, not "10"; got "10".'),
    ({"n": 10, "c": 3, "k": 5, "ks": ["2"]},
     'ks (extra k values) must be JSON numbers, not strings: send [2, 20], not ["2", "20"]; got "2".'),
    ({"n": 10.5, "c": 3, "k": 5}, "n (completions per problem) must be a whole number, like 200; got 10.5."),
    ({"n": True, "c": 3, "k": 5}, "n (completions per problem) must be a whole number, like 200; got true."),
    ({"n": [10], "c": 3, "k": 5}, "n (completions per problem) must be a whole number, like 200; got a list."),
    ({"n": 10, "c": -1, "k": 5}, "c (completions that passed) must be at least 0; got -1."),
    ({"n": 1e30, "c": 3, "k": 5}, "n (completions per problem) must be at most 1,000,000,000,000 (10^12)"),
    ({"n": 10, "c": 11, "k": 5}, "c must be from 0 to n (10)"),
    ({"n": 10, "c": 3}, '"k" is missing: k (samples you draw) is a whole number, as in {"n": 10, "c": 3, "k": 5}.'),
    ({"n": 10, "c": 3, "k": 5, "N": 1}, 'Unknown field "N": the JSON body takes n, c, k and optionally ks'),
    ({"n": 10, "c": 3, "k": 5, "ks": [0]}, "ks (extra k values) must be whole numbers from 1 to 10^12; got 0."),
    ({"n": 10, "c": 3, "k": 5, "ks": 2}, "ks (extra k values) must be a list of whole numbers, like [2, 20]; got 2."),
    ([10, 3, 5], 'The JSON body must be an object like {"n": 10, "c": 3, "k": 5}; got a list.'),
])
def test_api_json_body_refuses_strings_and_non_counts_in_one_sentence(client, body, message):
    response = client.post("/api/v1/pass-at-k", json=body)
    assert response.status_code == 400 and set(response.json) == {"error"}
    assert message in response.json["error"]


@pytest.mark.parametrize("data, content_type, message", [
    ("n=10&c=3&k=5", "application/x-www-form-urlencoded",
     'Send n, c and k as a JSON body {"n": 10, "c": 3, "k": 5} (Content-Type: application/json), or in the '
     'query string of a GET: ?n=10&c=3&k=5.'),
    ("{not json", "application/json", 'The request body is not valid JSON; send {"n": 10, "c": 3, "k": 5}.'),
    ("[" * 5000 + "]" * 5000, "application/json", "nested too deeply"),
])
def test_api_post_without_a_json_object_says_what_to_send(client, data, content_type, message):
    response = client.post("/api/v1/pass-at-k", data=data, content_type=content_type)
    assert response.status_code == 400 and message in response.json["error"]


def test_api_post_answers_are_not_cached(client):
    response = client.post("/api/v1/pass-at-k", json={"n": 10, "c": 3, "k": 5})
    assert "max-age" not in response.headers.get("Cache-Control", "")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**13) | st.floats() | st.text(max_size=6),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["n", "c", "k", "ks"]) | st.text(max_size=2), children, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=_JSON_VALUES)
def test_no_json_body_for_one_problem_is_a_server_error(app, body):
    response = app.test_client().post("/api/v1/pass-at-k", json=body)
    assert response.status_code in (200, 400) and response.is_json
