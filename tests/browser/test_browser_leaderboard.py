"""One eval-arena file of 29 models, uploaded as Run A alone on /compare in a real Chromium, is ranked (issue 17)."""

import pytest
from playwright.sync_api import expect

from where import REALDATA

pytestmark = pytest.mark.browser

ARENA = REALDATA / "evalarena__crux-eval_eval-arena__humaneval_hf_29_models.jsonl"


@pytest.mark.skipif(not ARENA.is_file(), reason=f"no real harness files at {REALDATA}")
def test_the_29_models_of_one_file_are_ranked_with_the_best_on_top(page):
    page.goto("/compare")
    page.locator("#file_a").set_input_files(str(ARENA))
    page.locator("#k").fill("1")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#ranking-heading")).to_have_text("29 runs ranked")
    rows = page.locator("#ranking-table-1 tbody tr")
    expect(rows).to_have_count(29)
    top = rows.first
    expect(top.locator("td.rank")).to_have_text("1")
    expect(top.locator("th")).to_have_text("Qwen1.5-110B")
    expect(top.locator("td.value")).to_have_text("54.27%")   # 89 of 164, SOURCES.md's 0.5426829268292683
    expect(top.locator("td.groups")).to_have_text("a")
    expect(rows.last.locator("th")).to_have_text("Qwen1.5-0.5B")
    expect(page.locator("#pairs-table-1 tbody tr[data-pair]")).to_have_count(406)
