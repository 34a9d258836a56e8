"""The factory only wires: create_app is short, every route lives in a blueprint, one function builds an answer."""

import inspect

import app as application

PROBLEMS = [{"task_id": "a", "n": 10, "c": 3}, {"task_id": "b", "n": 10, "c": 7}]


def test_create_app_only_configures_and_registers():
    assert len(inspect.getsource(application.create_app).splitlines()) < 40


def test_every_route_is_in_the_pages_or_the_api_blueprint(app):
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    assert all(endpoint.startswith(("pages.", "api.")) or endpoint == "static" for endpoint in endpoints), endpoints
    assert {rule.endpoint.startswith("api.") for rule in app.url_map.iter_rules()
            if rule.rule.startswith("/api/")} == {True}


def test_the_pages_and_the_api_keep_their_addresses(app):
    routes = {(rule.rule, rule.endpoint) for rule in app.url_map.iter_rules() if rule.endpoint != "static"}
    assert routes == {
        ("/", "pages.index"), ("/embed", "pages.embed"), ("/benchmark", "pages.benchmark"),
        ("/benchmark", "pages.benchmark_upload"), ("/benchmark/download", "pages.benchmark_download"),
        ("/compare", "pages.compare"), ("/compare", "pages.compare_upload"), ("/healthz", "pages.healthz"),
        ("/favicon.ico", "pages.favicon"), ("/api/v1/pass-at-k", "api.pass_at_k"),
        ("/api/v1/benchmark", "api.benchmark"), ("/api/v1/compare", "api.compare"),
    }


def test_a_json_body_and_the_same_problems_as_a_form_get_the_same_answer_but_for_the_format(client):
    by_json = client.post("/api/v1/benchmark", json={"problems": PROBLEMS, "k": [1, 5], "target": 2}).get_json()
    by_form = client.post("/api/v1/benchmark", data={"text": "task_id,n,c\na,10,3\nb,10,7\n", "k": "1, 5",
                                                      "target": "2"}).get_json()
    assert (by_json.pop("format"), by_form.pop("format")) == ("json", "csv")
    assert by_json == by_form
