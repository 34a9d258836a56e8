"""The graded table on the harness-shaped fixtures that carry graded scores (tests/fixtures/inspect/README.md and
tests/fixtures/lmeval/README.md give each figure's source): the mean score is the harness's own mean, max@k the
mean best of every k-subset."""

import io
import zipfile
from fractions import Fraction

import passk
from oracles import nearest
from where import ROOT

FIXTURES = ROOT / "tests" / "fixtures"


def eval_archive(folder):
    """An Inspect .eval log (a zip) of a folder's members."""
    written = io.BytesIO()
    with zipfile.ZipFile(written, "w", zipfile.ZIP_DEFLATED) as writer:
        for path in sorted(folder.rglob("*.json")):
            writer.writestr(path.relative_to(folder).as_posix(), path.read_bytes())
    return written.getvalue()


def test_an_inspect_f1_log_gives_inspects_mean_and_max_at_k(tmp_path):
    path = tmp_path / "squad.eval"
    path.write_bytes(eval_archive(FIXTURES / "inspect" / "squad_f1_eval"))
    summary = passk.summarize(passk.read(str(path)), k=[1, 2])
    # Inspect's header: mean 0.5444444444444444 (49/90: each sample's epochs by their mean, then over samples)
    assert summary.graded.mean.value == 0.5444444444444444
    # max@2: the first sample's 1.0, 0.6666666666666666, 1.0 has a 1 in every pair; the second's 0.0, 0.4 one pair
    at_1, at_2 = summary.graded.results
    assert at_1.estimate.value == summary.graded.mean.value
    assert at_2.estimate.value == nearest((1 + Fraction(0.4)) / 2) and at_2.first_k == at_2.estimate.value
    assert summary.averages.seeds is None   # 3 epochs and 2 scored: no spread across seeds


def test_an_lm_eval_graded_samples_file_gives_its_mean_score():
    path = FIXTURES / "lmeval" / "samples_longbench_hotpotqa_2025-01-01T00-00-00.000000.jsonl"
    summary = passk.summarize(passk.read(str(path)), k=[1])
    # F1 of 1.0, 0.33333333333333337, 0.0 and 1.0: mean score about 7/12, one sample each (no avg@k table)
    assert summary.graded.mean.value == nearest((2 + Fraction(0.33333333333333337)) / 4)
    assert summary.averages is None
