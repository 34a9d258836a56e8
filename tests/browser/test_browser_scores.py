"""The benchmark page's graded-scores and avg@k sections in a real Chromium, from an uploaded JSON of scores."""

import json

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

GRADED = {"problems": [{"task_id": "a", "scores": [1, 0, 0.5, 0.25]}, {"task_id": "b", "scores": [0, 1, 1, 0.75]},
                       {"task_id": "c", "scores": [0, 0, 0, 0.5]}]}


def test_an_uploaded_file_of_scores_shows_the_mean_score_max_at_k_and_the_seeds_spread(page, tmp_path):
    path = tmp_path / "graded.json"
    path.write_text(json.dumps(GRADED))
    page.goto("/benchmark")
    page.locator("#file").set_input_files(str(path))
    page.locator("#k").fill("2, 4")
    page.get_by_role("button", name="Calculate").click()
    expect(page.locator("#graded-heading")).to_be_visible()
    expect(page.locator("#mean-score")).to_contain_text("41.67%")   # (7/16 + 11/16 + 1/8) / 3
    # max@2, the mean best of every pair: 23/36
    expect(page.locator('#graded-table tr[data-k="2"] td.value')).to_have_attribute("title", repr(23 / 36))
    # the first 4 seeds' means 1/3, 1/3, 1/2, 1/2: their sample SD sqrt(1/108)
    expect(page.locator('#averages-table tr[data-k="4"]')).to_contain_text("9.62%")
