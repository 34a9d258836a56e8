"""SWE-bench run reports (SWE-bench/SWE-bench, `swebench.harness.run_evaluation`, swebench 2.x to 4.x).

`<model>.<run_id>.json`, schema_version 2: `{"total_instances", "submitted_instances",
"completed_instances", "resolved_instances", "unresolved_instances", "empty_patch_instances",
"error_instances", "completed_ids", "incomplete_ids", "empty_patch_ids", "submitted_ids",
"resolved_ids", "unresolved_ids", "error_ids", "schema_version"}`. One report is one sample of
each instance: c = 1 for the resolved ids, 0 for the unresolved, error, empty-patch and
incomplete ids, so pass@1 is resolved_instances / total_instances as SWE-bench reports it. A run
that submitted only some of the instances (a batch of 25 of 500) is often quoted as resolved /
submitted instead: when fewer were submitted than total_instances, a warning gives both.
Several runs of one model (several reports) combine with `read_files` into several samples.
"""

from passk.formats._core import JSON, FormatError, Problem, append, field, problem, show, task_id_of
from passk.formats.registry import register

NAME = "swebench"
LABEL = "SWE-bench"   # the tool, as people name it
TITLE = "SWE-bench run report (<model>.<run_id>.json)"
SIGNATURE = 'an object with "resolved_ids" and "unresolved_ids"'   # what detection looks for
SOURCE = "SWE-bench (swebench.harness.run_evaluation) run report"
FAILED = ("unresolved_ids", "error_ids", "empty_patch_ids", "incomplete_ids")   # each a sample that failed


def looks_like(document: JSON) -> bool:
    return isinstance(document, dict) and "resolved_ids" in document and "unresolved_ids" in document


def read(document: JSON, suite: str, limit: int | None) -> list[Problem]:
    """Read a SWE-bench run report: one sample per instance, passed when its id is among "resolved_ids"."""
    if not isinstance(document, dict):
        raise FormatError('Expected a SWE-bench run report: an object with "resolved_ids" and "unresolved_ids".')
    resolved = _ids(document, "resolved_ids", required=True)
    failed: dict[str, str] = {}
    for key in FAILED:
        for instance_id, path in _ids(document, key, required=key == "unresolved_ids").items():
            if instance_id in resolved:
                raise FormatError(f"At {path}: the instance {show(instance_id)} is also in resolved_ids; "
                                  f"an instance is either resolved or not, so it cannot be in both lists.")
            failed.setdefault(instance_id, path)
    problems: list[Problem] = []
    for instance_id in sorted(resolved.keys() | failed.keys()):
        append(problems, problem(instance_id, 1, int(instance_id in resolved), "At resolved_ids"), limit)
    return problems


def warnings(document: JSON) -> list[str]:
    """A warning when the id lists cover fewer instances than total_instances, or fewer were submitted."""
    total = document.get("total_instances")
    if isinstance(total, bool) or not isinstance(total, int):
        return []
    listed = {str(instance_id) for key in ("resolved_ids", *FAILED) for instance_id in document.get(key) or ()}
    if len(listed) >= total:
        return _submitted(document, total)
    return [f"The report lists {len(listed):,} instance ids but total_instances is {total:,}: the "
            f"{total - len(listed):,} not listed are left out, so pass@1 here is over the {len(listed):,} listed, "
            f"not resolved_instances / total_instances as SWE-bench reports it."]


def _submitted(document: dict[str, JSON], total: int) -> list[str]:
    """Both rates of a run that submitted fewer instances than total_instances: of all, and of those submitted."""
    submitted_ids = document.get("submitted_ids")
    submitted = len(submitted_ids) if isinstance(submitted_ids, list) else document.get("submitted_instances")
    resolved = document.get("resolved_ids")
    if isinstance(submitted, bool) or not isinstance(submitted, int) or not 0 < submitted < total \
            or not isinstance(resolved, list):
        return []
    return [f"Only {submitted:,} of the {total:,} instances were submitted: {len(resolved):,} resolved is "
            f"{len(resolved) / total:.1%} of all {total:,} and {len(resolved) / submitted:.1%} of the {submitted:,} "
            f"submitted. passk counts all {total:,} (the {total - submitted:,} not submitted as unresolved), as "
            f"SWE-bench's own resolved_instances / total_instances does; a figure over the submitted alone is the "
            f"{len(resolved) / submitted:.1%}."]


def _ids(document: dict[str, JSON], key: str, required: bool = False) -> dict[str, str]:
    """{instance id: its key path} of one of the report's id lists; a missing optional list is empty."""
    if key not in document and not required:
        return {}
    ids = field(document, key, "At the top level")
    if not isinstance(ids, list):
        raise FormatError(f"At {key}: expected a list of instance ids; got {show(ids)}.")
    return {task_id_of(instance_id, f"At {key}[{index}]"): f"{key}[{index}]" for index, instance_id in enumerate(ids)}


register(__name__)
