"""The benchmark, compare and download forms as typed values, read once from a request's fields: the text as
typed (to refill the form), and what the fields mean (the ks, the planner's options) read when asked, so that
each error comes in the order the page has always said it. Also the hidden fields that carry an upload's counts
into the next calculation, and the planner's options and ks of the API's JSON body, read as numbers."""

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from markupsafe import escape

from passk.results.benchmark import parse_ks
from passk.maths.estimator import DEFAULT_KS, MAX_N
from passk.formats import SUITES
from passk.formats._core import JSON, FormatError
from passk.maths.gpass import threshold
from passk.limits import LIMITS
from passk.maths.majority import TIES
from passk.results.metrics import Beside
from passk.results.planner import checked_option, option_value
from passk.writing.report import Report

NO_INPUT = "Paste results into the box or choose a file to upload; both are empty."
# The page's hidden fields that carry an uploaded file's counts into the next calculation:
# its name, its format, and its packed task_id,n,c rows (one field per suite for EvalPlus).
CARRIED_FIELDS = ("carried_name", "carried_format", "carried_counts", *(f"carried_{suite}" for suite in SUITES))
CARRIED_MISSING = "The page's counts for this file are missing; choose the file again."
CARRIED_DAMAGED = "The page's counts for {} are damaged; choose the file again."
DOWNLOAD_DAMAGED = "The download form's counts are damaged; calculate again and download from the new page."
K_ECHOED = 200   # characters of the k field a page shows back: enough for any list it accepts
PLANNING_FIELDS = ("target", "tokens_per_sample", "price_per_million")


class KField(str):
    """The k field as typed: the whole text for parse_ks, but a page shows back only its first K_ECHOED
    characters (Jinja escapes a value through its __html__), so a field of megabytes is not sent back."""

    def __html__(self) -> str:
        return str(escape(str.__str__(self)[:K_ECHOED]))


@dataclass(frozen=True)
class BenchmarkForm:
    """The benchmark form's fields as typed, with defaults; suite is "" unless one was chosen."""

    text: str = ""
    k: KField = KField(", ".join(map(str, DEFAULT_KS)))
    format: str = ""
    suite: str = ""
    counts: str = ""   # a share link's counts
    z: str = ""        # a share link's deflated counts
    carried: Mapping[str, str] = field(default_factory=dict)   # the CARRIED_FIELDS sent, those not empty
    target: str = "1"
    tokens_per_sample: str = ""
    price_per_million: str = ""
    tau: str = ""   # G-Pass@k's share of the k samples that must pass; empty: no G-Pass@k
    tie: str = ""   # maj@k's rule for a tied vote (passk.maths.majority.TIES); empty: fractional

    def ks(self) -> list[int]:
        """The k field's ks (parse_ks: ValueError with a sentence for a bad list)."""
        return parse_ks(self.k)

    def planning(self) -> dict[str, float]:
        """plan()'s options: the target in points, tokens per sample, price per 10^6 tokens (ValueError naming a bad
        field)."""
        return planning_options(self.target, self.tokens_per_sample, self.price_per_million)

    def beside(self) -> Beside:
        """What to compute beside pass@k: G-Pass@k at tau, maj@k's tie rule (ValueError naming a bad field)."""
        return beside_options(self.tau, self.tie)


@dataclass(frozen=True)
class CompareForm:
    """The compare form's fields as typed, with defaults: runs A, B and C pasted and named, and the planner's."""

    k: KField = BenchmarkForm.k
    format: str = ""
    suite: str = ""
    text_a: str = ""
    text_b: str = ""
    text_c: str = ""
    name_a: str = ""
    name_b: str = ""
    name_c: str = ""
    difference: str = ""
    tokens_per_sample: str = ""
    price_per_million: str = ""
    curve_k: KField = KField("")   # the ks of the curves over k, like 1-128; empty: the page chooses them

    def ks(self) -> list[int]:
        """The k field's ks (parse_ks: ValueError with a sentence for a bad list)."""
        return parse_ks(self.k)

    def curve_ks(self) -> list[int] | None:
        """The curve_k field's ks, up to LIMITS.curve_ks (parse_ks); None when it is empty."""
        return parse_ks(self.curve_k, LIMITS.curve_ks) if self.curve_k.strip() else None

    def planning(self) -> dict[str, float]:
        """comparison_plan()'s options: the difference to detect in points, tokens per sample, price per 10^6
        tokens (ValueError naming a bad field)."""
        return comparison_options(self.difference, self.tokens_per_sample, self.price_per_million)


@dataclass(frozen=True)
class DownloadForm:
    """The download form the benchmark page holds: which download, the counts (packed, else task_id,n,c text),
    the ks, and the format the results were read as."""

    kind: str = "csv"   # "csv" or "json"
    packed: str | None = None
    counts: str = ""
    k: str = ""
    source_format: str = "csv"

    def ks(self) -> list[int]:
        return parse_ks(self.k)


def benchmark_form(values: Mapping[str, str]) -> BenchmarkForm:
    """The benchmark form of a request's fields (its query string or its form)."""
    return BenchmarkForm(
        text=values.get("text", ""),
        k=KField(values.get("k") or BenchmarkForm.k),
        format=values.get("format") or "",
        suite=values.get("suite") or "",
        counts=values.get("counts") or "",
        z=values.get("z") or "",
        carried={name: values[name] for name in CARRIED_FIELDS if values.get(name)},
        target=values.get("target") or "1",
        tokens_per_sample=values.get("tokens_per_sample") or "",
        price_per_million=values.get("price_per_million") or "",
        tau=values.get("tau") or "",
        tie=values.get("tie") or "",
    )


def compare_form(values: Mapping[str, str]) -> CompareForm:
    """The compare form of a request's fields. The benchmark form's are read first, in its order: the names
    read are the parameters the page knows (web.caching), the benchmark's among them."""
    common = benchmark_form(values)
    runs = {f"{field_name}_{run}": values.get(f"{field_name}_{run}", "") for field_name in ("text", "name")
            for run in "abc"}
    return CompareForm(k=common.k, format=common.format, suite=common.suite, **runs,
                       difference=values.get("difference") or "", tokens_per_sample=common.tokens_per_sample,
                       price_per_million=common.price_per_million, curve_k=KField(values.get("curve_k") or ""))


def download_form(values: Mapping[str, str]) -> DownloadForm:
    """The download form of a request's fields."""
    return DownloadForm(kind=values.get("as", "csv"), packed=values.get("packed"), counts=values.get("counts", ""),
                        k=values.get("k", ""), source_format=values.get("source_format", "csv"))


def carried_fields(report: Report) -> dict[str, str] | None:
    """The page's hidden fields that recalculate this upload without the file; None when too large to carry."""
    if report.source_name is None or None in report.packed.values():
        return None
    fields = {"carried_name": report.source_name, "carried_format": report.format}
    fields.update((f"carried_{suite}" if suite else "carried_counts", packed)
                  for suite, packed in report.packed.items() if packed is not None)
    return fields


def beside_options(tau: str, tie: str) -> Beside:
    """Beside from the tau and tie fields as typed: tau a share from 0 to 1 (as a decimal or a percent,
    empty for none), tie one of passk.maths.majority.TIES (empty for fractional)."""
    share = None
    if tau.strip():
        text = tau.strip()
        try:
            share = float(text.removesuffix("%")) / (100 if text.endswith("%") else 1)
            threshold(1, share)
        except ValueError:
            raise ValueError(f"tau must be a share from 0 to 1, such as 0.5 (G-Pass@k counts a draw of k "
                             f"samples when at least that share of them pass); got {tau[:40]!r}.") from None
    rule = tie.strip() or "fractional"
    if rule not in TIES:
        raise ValueError(f"tie must be {' or '.join(TIES)} (how maj@k scores a tied vote); got {tie[:40]!r}.")
    return Beside(share, rule)


def _options(**texts: str | None) -> dict[str, float]:
    """{name: option_value(name, text)} for the fields that are not empty."""
    return {name: option_value(name, text) for name, text in texts.items() if (text or "").strip()}


def planning_options(target: str | None = "1", tokens_per_sample: str | None = "",
                     price_per_million: str | None = "") -> dict[str, float]:
    """plan()'s keyword arguments from form fields: the target in points, tokens per sample, price per 10^6 tokens."""
    return _options(target=target, tokens_per_sample=tokens_per_sample, price_per_million=price_per_million)


def comparison_options(difference: str | None = "", tokens_per_sample: str | None = "",
                       price_per_million: str | None = "") -> dict[str, float]:
    """comparison_plan()'s keyword arguments from form fields: the difference to detect in points, tokens per
    sample, price per 10^6 tokens."""
    return _options(difference=difference, tokens_per_sample=tokens_per_sample,
                    price_per_million=price_per_million)


def json_planning(body: JSON) -> dict[str, float]:
    """plan()'s options from a JSON body's "target" (points), "tokens_per_sample" and "price_per_million"
    numbers; FormatError for one that is not a number, ValueError (as the form's) for one out of its range."""
    options = {name: body[name] for name in PLANNING_FIELDS if name in body} if isinstance(body, dict) else {}
    for name, value in options.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise FormatError(f'"{name}" must be a JSON number, like {{"{name}": 2}}.')
    return {name: checked_option(name, _as_float(value), repr(value)) for name, value in options.items()}


def _as_float(number: int | float) -> float:
    """A JSON number as a float; an integer too large for one is infinite (out of every option's range)."""
    try:
        return float(number)
    except OverflowError:
        return math.inf if number > 0 else -math.inf


def json_ks(ks: list[int]) -> list[int]:
    """A JSON body's "k" (whole numbers, at most LIMITS.ks of them) sorted and distinct; ValueError, in the k field's
    words (parse_ks), for none, or one outside 1 to 10^12."""
    if not ks:
        raise ValueError("No k given: list whole numbers from 1 to 10^12 separated by commas, like 1,10,100.")
    for k, written in zip(ks, [str(k) for k in ks]):
        if len(written.lstrip("-").lstrip("0")) > len(str(MAX_N)) or k > MAX_N:
            raise ValueError(f"k must be at most 10^12 ({MAX_N:,}); got {written[:40]}.")
        if k < 1:
            raise ValueError(f"k must be at least 1; got {k}.")
    return sorted(set(ks))
