"""After a form is sent, its answer is on the screen (issue 18): the result's heading (or the error) inside the
viewport on a desktop and a phone, whether the page was sent as a form, uploaded with a progress bar, or opened
from a share link."""

import json

import pytest
from browsing import paste_runs
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
RUN_A = "A,10,3\nB,10,5\nC,10,10\nD,10,1\n"
RUN_B = "A,10,1\nB,10,5\nC,10,7\nD,10,2\n"
RUN_C = "A,10,0\nB,10,2\nC,10,9\nD,10,2\n"


@pytest.fixture(params=sorted(SCREENS))
def screen(page, request):
    page.set_viewport_size(SCREENS[request.param])
    return page


def test_pasted_counts_bring_the_benchmark_result_into_view(screen):
    screen.goto("/benchmark")
    screen.locator("#text").fill("10 3\n10 0\n10 7\n")
    screen.get_by_role("button", name="Calculate").click()
    expect(screen.locator("#benchmark-heading")).to_be_in_viewport()


def test_an_uploaded_file_brings_the_benchmark_result_into_view(screen, tmp_path):
    path = tmp_path / "samples.jsonl_results.jsonl"
    path.write_text("".join(json.dumps({"task_id": f"T/{i % 5}", "passed": i % 3 == 0}) + "\n" for i in range(50)))
    screen.goto("/benchmark")
    screen.locator("#file").set_input_files(str(path))
    screen.get_by_role("button", name="Calculate").click()
    expect(screen.locator("#benchmark-heading")).to_be_in_viewport()


def test_a_bad_input_brings_its_message_into_view(screen):
    screen.goto("/benchmark")
    screen.locator("#text").fill("10 30\n")
    screen.get_by_role("button", name="Calculate").click()
    expect(screen.get_by_role("alert")).to_be_in_viewport()


def test_two_runs_bring_the_comparison_into_view(screen):
    paste_runs(screen, RUN_A, RUN_B)
    expect(screen.locator("#compare-heading")).to_be_in_viewport()


def test_three_runs_bring_the_ranking_into_view(screen):
    paste_runs(screen, RUN_A, RUN_B, RUN_C)
    expect(screen.locator("#ranking-heading")).to_be_in_viewport()


def test_a_share_link_opens_at_its_result(screen):
    screen.goto("/benchmark")
    screen.locator("#text").fill("10 3\n10 0\n10 7\n")
    screen.get_by_role("button", name="Calculate").click()
    link = screen.locator("#share-link").get_attribute("href")
    screen.goto("/")
    screen.goto(link)
    expect(screen.locator("#benchmark-heading")).to_be_in_viewport()
    expect(screen.locator("#benchmark-heading")).to_be_focused()


def test_the_calculator_s_first_screen_on_a_small_phone_holds_the_answer(page):
    page.set_viewport_size({"width": 320, "height": 568})
    page.goto("/?n=200&c=57&k=10")
    expect(page.locator("#pass-at-k")).to_be_in_viewport(ratio=1)
    expect(page.locator("#n")).to_be_in_viewport(ratio=1)   # and the inputs it came from
    assert page.locator("#n-help").bounding_box()["height"] <= 1   # the hints step aside for the answer
    page.goto("/?n=5&c=9&k=1")   # with no answer to show, the hints and the lede are back
    expect(page.get_by_role("alert")).to_be_in_viewport()
    assert page.locator("#n-help").bounding_box()["height"] > 10 and page.locator(".lede").bounding_box()["height"] > 10


def test_long_explanations_wait_behind_their_disclosures(page):
    page.goto("/benchmark")
    page.locator("#text").fill("A,10,3\nB,10,0\nC,10,10\n")
    page.locator("#k").fill("1, 5")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#results-table")).to_be_visible()
    for hidden, summary in (("#plan-k-1", "#planning > summary"), ("#per-problem", "#per-problem-section > summary"),
                            ("#interval-method p", "#interval-method > summary")):
        expect(page.locator(hidden)).to_be_hidden()
        page.locator(summary).click()
        expect(page.locator(hidden)).to_be_visible()
    page.locator("#target").fill("2")   # a planning value sent keeps the planning open on the answer
    page.locator("#target").press("Enter")
    expect(page.locator("#plan-k-1")).to_be_visible()
    expect(page.locator("#per-problem")).to_be_hidden()
