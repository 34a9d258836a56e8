"""What several browser tests do to reach a result: the compare page with two pasted runs, or with run files."""

from playwright.sync_api import expect


def paste_runs(page, *runs, ks=None):
    """/compare with the runs pasted as run A, B (and C), and ks when given, sent with the Compare button."""
    page.goto("/compare")
    for name, text in zip("abc", runs):
        page.locator(f"#text_{name}").fill(text)
    if ks is not None:
        page.locator("#k").fill(ks)
    page.get_by_role("button", name="Compare").click()


def compare_pasted(page, run_a, run_b, ks="1, 5"):
    """/compare with run A and run B pasted; waits for the table of their difference."""
    paste_runs(page, run_a, run_b, ks=ks)
    expect(page.locator("#compare-table")).to_be_visible()


def rank_files(page, run_files, ks="1, 10"):
    """/compare with run A and run B as files and the rest under "More runs"; waits for the ranking."""
    page.goto("/compare")
    page.locator("#file_a").set_input_files(run_files[0])
    page.locator("#file_b").set_input_files(run_files[1])
    page.get_by_label("Files, one per run").set_input_files(run_files[2:])
    page.locator("#k").fill(ks)
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#ranking-heading")).to_have_text(f"{len(run_files)} runs ranked")
