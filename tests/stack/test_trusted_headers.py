"""Through the production stack (nginx in front of gunicorn), what a client sends cannot change what others get.

Issue 15, "Trust only what the deployment says": forwarded headers from a client
do not reach the app, unknown query parameters make no new cache entries,
oversized bodies always get the app's 413 sentence (never nginx's 503), and an
HTTP/0.9 request line gets no headless answer. Timeouts here only keep a stuck
stack from hanging the suite; nothing is timed.
"""

import json
import re
import socket
from pathlib import Path

import pytest

from deploy.stack import find_executable

MARKER = "zq-untrusted-7731"

pytestmark = pytest.mark.skipif(
    not find_executable("nginx"),
    reason="the production stack needs nginx; scripts/test.sh installs it")


def get(stack, path, headers=None):
    return stack.request("GET", path, headers=headers)


def until_hit(stack, path, headers=None, tries=50):
    """The answer once nginx serves path from its cache (it files an answer after passing it on), else None."""
    return next((answer for answer in (get(stack, path, headers) for _ in range(tries))
                 if answer[1].get("x-cache") == "HIT"), None)


def run_dir(stack):
    """The stack's run directory: the prefix (-p) of the nginx that scripts/run.sh started."""
    for pid in Path(f"/proc/{stack.process.pid}/task/{stack.process.pid}/children").read_text().split():
        # nginx rewrites its command line as "nginx: master process /usr/sbin/nginx -p <dir> -c ..."
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        if "nginx" in command and (prefix := re.search(r" -p (\S+)", command)):
            return Path(prefix.group(1))
    raise AssertionError("no nginx among the stack's processes")


def cache_files(stack):
    return [path for path in (run_dir(stack) / "cache").rglob("*") if path.is_file()]


def share_links(body):
    """The absolute links to this site a page offers (share link, embed snippet, full calculator)."""
    return re.findall(rb"https?://[^/\"'<\s]*/(?:embed)?\?n=[^\"'<\s]*", body)


# --- forwarded headers ---------------------------------------------------------------------------------------

FORGED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example", "X-Forwarded-For": "203.0.113.9",
          "X-Forwarded-Ssl": "on", "X-Forwarded-Protocol": "ssl", "Forwarded": "proto=https;host=evil.example"}


@pytest.mark.parametrize("path", ["/?n=31&c=7&k=4", "/embed?n=31&c=7&k=4"])
def test_forwarded_headers_from_a_client_change_no_link_and_poison_no_cache(stack, path):
    status, headers, body = get(stack, path, headers={"Host": "localhost", **FORGED})
    assert status == 200
    links = share_links(body)
    assert links and all(link.startswith(b"http://localhost/") for link in links)
    assert b"https://localhost" not in body and b"evil.example" not in body
    # The next plain request, served from nginx's cache, has the same plain links.
    plain = until_hit(stack, path, headers={"Host": "localhost"})
    assert plain is not None, "the page was never served from nginx's cache"
    assert plain[2] == body
    assert b"https://localhost" not in plain[2] and b"evil.example" not in plain[2]


def test_a_forged_host_header_in_forwarded_form_is_not_the_host_of_the_links(stack):
    # Sent first, so this address's cache entry is the one built from the forged request.
    path = "/?n=32&c=7&k=4"
    _, _, body = get(stack, path, headers={"Host": "127.0.0.1", "X-Forwarded-Host": "evil.example",
                                           "X-Forwarded-Proto": "https"})
    assert share_links(body) and all(link.startswith(b"http://127.0.0.1/") for link in share_links(body))


# --- unknown query parameters --------------------------------------------------------------------------------

@pytest.mark.parametrize("path, known", [
    ("/?n=41&c=9&k=3", "/?n=41&c=9&k=3"),
    ("/embed?theme=dark&n=41&c=9&k=3", "/embed?n=41&c=9&k=3&theme=dark"),
    ("/api/v1/pass-at-k?n=41&c=9&k=3", "/api/v1/pass-at-k?n=41&c=9&k=3"),
    ("/benchmark?counts=3x9-4&k=1", "/benchmark?k=1&counts=3x9-4"),
    ("/compare", "/compare"),
])
def test_an_unknown_parameter_redirects_to_the_known_ones_and_is_never_cached(stack, path, known):
    status, headers, _ = get(stack, f"{path}{'&' if '?' in path else '?'}zzz={MARKER}&{MARKER}=1")
    assert status == 308
    assert MARKER not in headers["location"] and "zzz" not in headers["location"]
    assert headers["location"] == known
    assert get(stack, headers["location"])[0] in (200, 400)
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path, location", [
    ("/api/v1/pass-at-k?k=2&zzz=1&n=5&k=3&c=1", "/api/v1/pass-at-k?n=5&c=1&k=2&k=3"),   # every value kept
    ("/?zzz=1", "/"),
    ("/static/app.js?v=0&zzz=1", "/static/app.js?v=0"),
    ("/favicon.ico?zzz=1", "/favicon.ico"),
])
def test_the_redirect_keeps_every_known_value_in_one_order(client, path, location):
    answer = client.get(path, headers={"Host": "localhost"})
    assert (answer.status_code, answer.headers["Location"]) == (308, location)


def test_known_parameters_and_other_routes_are_not_redirected(client):
    assert client.get("/?n=10&c=3&k=5", headers={"Host": "localhost"}).status_code == 200
    assert client.get("/healthz?zzz=1", headers={"Host": "localhost"}).status_code == 200
    assert client.post("/api/v1/pass-at-k?zzz=1", json={"n": 5, "c": 1, "k": 2},
                       headers={"Host": "localhost"}).status_code == 200


def test_two_addresses_differing_by_an_unknown_parameter_make_one_cache_entry(stack):
    path = "/?n=43&c=11&k=2"
    before = len(cache_files(stack))
    first = get(stack, path)
    assert first[0] == 200
    assert until_hit(stack, path) is not None
    second = get(stack, f"{path}&zzz={MARKER}")
    assert second[0] == 308 or second[1].get("x-cache") == "HIT"
    assert get(stack, f"{path}&zzz={MARKER}")[0] == second[0]   # the redirect is not kept: asked again, the same
    assert len(cache_files(stack)) == before + 1
    # Nothing nginx keeps, in memory-backed files or on disk, holds the marker.
    for directory in (run_dir(stack) / "cache", run_dir(stack) / "proxy"):
        for file in (p for p in directory.rglob("*") if p.is_file()):
            assert MARKER.encode() not in file.read_bytes()


# --- oversized bodies ----------------------------------------------------------------------------------------

OVERSIZED = [
    pytest.param("/api/v1/pass-at-k", "application/json",
                 b'{"n": 10, "c": 3, "k": 5, "pad": "' + b"x" * (8 * 2**20 + 1000) + b'"}', "8 MiB", id="json-over-8MiB"),
    pytest.param("/api/v1/benchmark", "application/x-www-form-urlencoded",
                 b"k=1&text=" + b"x" * (6 * 2**20 + 1000), "6 MiB", id="form-over-6MiB"),
]


@pytest.mark.parametrize("path, content_type, body, limit", OVERSIZED)
def test_an_oversized_body_always_gets_the_413_sentence_never_503(stack, path, content_type, body, limit):
    answers = [stack.request("POST", path, body=body, headers={"Content-Type": content_type}) for _ in range(10)]
    assert [status for status, _, _ in answers] == [413] * 10
    for _, headers, answer in answers:
        assert headers["content-type"].startswith("application/json")
        sentence = json.loads(answer)["error"]
        assert limit in sentence and sentence.endswith(".")
    assert "Error handling" not in stack.log()


# --- HTTP/0.9 ------------------------------------------------------------------------------------------------

def raw_answer(stack, data, timeout=60):
    """Every byte the stack sends back to data before it closes the connection."""
    with socket.create_connection(("127.0.0.1", stack.port), timeout=timeout) as connection:
        connection.sendall(data)
        answer = b""
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    return answer


@pytest.mark.parametrize("line", [b"GET /nope\r\n", b"GET /?n=10&c=3&k=5\r\n", b"GET /api/v1/pass-at-k\r\n"])
def test_an_http_0_9_request_gets_nothing_rather_than_an_answer_without_headers(stack, line):
    answer = raw_answer(stack, line)
    if answer:   # a headed answer would do as well
        head = answer.partition(b"\r\n\r\n")[0].lower()
        assert answer.startswith(b"HTTP/1.")
        assert b"x-content-type-options: nosniff" in head and b"content-security-policy:" in head
    # and the stack still answers
    assert get(stack, "/healthz")[0] == 200


def test_the_stack_still_answers_requests_with_a_version(stack):
    assert raw_answer(stack, b"GET /healthz HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 200")

