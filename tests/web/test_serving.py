"""What the app promises a public website: hosts it answers for, health, caching, quiet logs."""

import logging
import re

import pytest

from passk.web.app import create_app, trusted_hosts

MARKER = "zq-marker-7731"


@pytest.mark.parametrize("allowed, public_url, expected", [
    (None, None, ["localhost", "127.0.0.1"]),
    (None, "https://passk.example.org/", ["localhost", "127.0.0.1", "passk.example.org"]),
    ("passk.example.org, .example.net", None, ["passk.example.org", ".example.net"]),
    ("*", "https://passk.example.org", None),
])
def test_trusted_hosts_come_from_the_settings(allowed, public_url, expected):
    assert trusted_hosts(allowed, public_url) == expected


@pytest.mark.parametrize("path", ["/?n=10&c=3&k=5", "/embed?n=10&c=3&k=5", "/benchmark", "/nowhere"])
def test_a_request_for_another_host_gets_no_links_to_it(client, path):
    response = client.get(path, headers={"Host": "evil.example"})
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert "evil.example" not in body and "PASSK_ALLOWED_HOSTS" in body
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]


def test_the_api_refuses_another_host_in_json(client):
    response = client.get("/api/v1/pass-at-k?n=1&c=1&k=1", headers={"Host": "evil.example:80"})
    assert response.status_code == 400
    assert "PASSK_ALLOWED_HOSTS" in response.json["error"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8000", "localhost:5000"])
def test_local_hosts_are_answered(client, host):
    response = client.get("/?n=10&c=3&k=5", headers={"Host": host})
    assert response.status_code == 200
    assert f"http://{host}/?n=10" in response.get_data(as_text=True)


def test_allowed_hosts_star_answers_any_host():
    client = create_app({"TESTING": True, "TRUSTED_HOSTS": trusted_hosts("*"),
                         "PUBLIC_URL": "https://passk.example.org"}).test_client()
    html = client.get("/?n=10&c=3&k=5", headers={"Host": "internal.lb"}).get_data(as_text=True)
    assert "https://passk.example.org/?n=10" in html and "internal.lb" not in html


def test_healthz_is_cheap_and_never_cached(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.data == b"ok\n"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_static_files_are_fingerprinted_and_cached_for_a_year(client):
    html = client.get("/").get_data(as_text=True)
    addresses = re.findall(r'"(/static/[^"?]+\?v=[0-9a-f]{12})"', html)
    assert {address.split("?")[0] for address in addresses} >= {"/static/style.css", "/static/app.js"}
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 200
        assert response.cache_control.max_age == 365 * 24 * 3600 and response.cache_control.immutable
        response.close()


@pytest.mark.parametrize("address", ["/static/style.css", "/static/style.css?v=000000000000"])
def test_a_static_file_without_its_fingerprint_is_cached_an_hour_with_an_etag(client, address):
    response = client.get(address)
    assert response.cache_control.max_age == 3600 and not response.cache_control.immutable
    assert response.headers["ETag"]
    response.close()


def test_favicon_ico_is_an_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype in ("image/vnd.microsoft.icon", "image/x-icon")
    assert response.data[:4] == b"\x00\x00\x01\x00"   # the ICO header
    response.close()


def test_an_unexpected_error_is_logged_without_what_the_user_sent(caplog):
    app = create_app({"TESTING": False})

    @app.get("/explode")
    def explode():
        raise ValueError(f"bad input {MARKER}")

    with caplog.at_level(logging.ERROR):
        response = app.test_client().get(f"/explode?q={MARKER}")
    assert response.status_code == 500 and MARKER not in response.get_data(as_text=True)
    logged = "\n".join(record.getMessage() + str(record.exc_info) for record in caplog.records)
    assert "ValueError" in logged and "test_serving.py" in logged
    assert MARKER not in logged and "/explode" not in logged


@pytest.mark.parametrize("path", ["/?n=10&c=3&k=5", "/embed?n=10&c=3&k=5", "/api/v1/pass-at-k?n=10&c=3&k=5",
                                  "/benchmark?counts=10:3,10:0&k=1,5", "/benchmark", "/compare"])
def test_answers_that_depend_only_on_their_address_may_be_cached(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.cache_control.public and response.cache_control.max_age == 600


@pytest.mark.parametrize("method, path", [("GET", "/?n=10&c=30&k=5"), ("GET", "/api/v1/pass-at-k?n=x"),
                                          ("GET", "/healthz"), ("POST", "/benchmark"), ("GET", "/nowhere")])
def test_errors_posts_and_health_are_not_cached(client, method, path):
    response = client.open(path, method=method)
    assert not response.cache_control.public and response.cache_control.max_age in (None, 0)
