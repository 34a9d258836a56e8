"""Several files that are parts of one run, read as one: per-problem files, or repeats of a whole run.

MultiPL-E writes one file per problem; SWE-bench writes one report per run, and
several runs of one model are several samples of each instance. Both combine
the same way: a problem's samples are all its samples in all the files, so n
and c add up per task id, and so do the samples' votes (extracted answers) and
scores when every file has them. Files without task ids cannot be matched and are refused,
and so are files of different layouts.
"""

from collections import Counter

from passk.formats._core import FormatError, Parsed, Problem, Tally, Vote, show
from passk.formats.detect import FORMAT_NAMES
from passk.limits import too_many_problems


def by_position(parsed: Parsed) -> bool:
    """True when some problem has no task id of its own: the readers name it "problem i" after its position i."""
    return any(problem.task_id == f"problem {index}" for index, problem in enumerate(parsed.problems, 1)
               if problem.task_id.startswith("problem "))


def combine(runs: list[tuple[str | None, Parsed]], max_problems: int | None = None) -> Parsed:
    """One Parsed from [(file name, Parsed), ...], adding up each task id's samples; says how in .combined."""
    if len(runs) == 1:
        return runs[0][1]
    _check_combinable(runs)
    tally: Tally = {}
    files_of: Counter[str] = Counter()
    voted = all(problem.votes is not None for _, parsed in runs for problem in parsed.problems)
    votes: dict[str, list[Vote]] = {}
    scored = all(problem.scores is not None for _, parsed in runs for problem in parsed.problems)
    scores: dict[str, list[float]] = {}
    for _, parsed in runs:
        for problem in parsed.problems:
            counts = tally.setdefault(problem.task_id, [0, 0])
            counts[0] += problem.n
            counts[1] += problem.c
            files_of[problem.task_id] += 1
            if voted and problem.votes:
                votes.setdefault(problem.task_id, []).extend(problem.votes)
            if scored and problem.scores:
                scores.setdefault(problem.task_id, []).extend(problem.scores)
        if max_problems is not None and len(tally) > max_problems:
            raise FormatError(too_many_problems(max_problems))
    first = runs[0][1]
    warnings = _files_warnings(runs)
    combined = Parsed([Problem(task_id, n, c, tuple(votes[task_id]) if voted else None,
                               tuple(scores.get(task_id, ())) if scored else None)
                       for task_id, (n, c) in tally.items()], first.format, warnings, source=first.source)
    combined.combined = _how(runs, files_of, warnings)
    return combined


def _check_combinable(runs: list[tuple[str | None, Parsed]]) -> None:
    """Refuse files of different layouts, and files whose problems have no task ids."""
    layouts = {parsed.format for _, parsed in runs}
    if len(layouts) > 1:
        named = ", ".join(f"{name} ({FORMAT_NAMES[parsed.format]})" for name, parsed in runs[:5])
        raise FormatError(f"The files combine into one run only when they share a layout; got {named}. "
                          "Compare different runs on the compare page instead.")
    for name, parsed in runs:
        if by_position(parsed):
            raise FormatError(f"{name} has no task ids, so its problems cannot be matched with the other "
                              'files\' problems; give each line a task id ("task_id n c").')


def _files_warnings(runs: list[tuple[str | None, Parsed]]) -> list[str]:
    """Each file's warnings, prefixed by the file's name; a warning of several files is said once, naming them."""
    files_of_warning: dict[str, list[str]] = {}
    for name, parsed in runs:
        for warning in parsed.warnings:
            files_of_warning.setdefault(warning, []).append(str(name))
    return [f"{_named(names, len(runs))}: {warning}" for warning, names in files_of_warning.items()]


def _named(names: list[str], files: int) -> str:
    """Files named for a warning: one by its name, all as "Every file", some listed."""
    if len(names) == 1:
        return names[0]
    if len(names) == files:
        return f"All {files:,} files"
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3:,} more" if len(names) > 3 else "")
    return f"{len(names):,} files ({shown})"


def _how(runs: list[tuple[str | None, Parsed]], files_of: Counter[str], warnings: list[str]) -> str:
    """One sentence saying how the files were combined, adding a warning when problems are in some files only."""
    files = len(runs)
    if max(files_of.values()) == 1:
        return (f"{files:,} files combined into one run of {len(files_of):,} problems: "
                "each problem was in one file.")
    partial = [task_id for task_id, seen in files_of.items() if seen < files]
    if partial:
        more = f" and {len(partial) - 3:,} more" if len(partial) > 3 else ""
        warnings.append(f"{len(partial):,} of {len(files_of):,} problems are in only some of the {files:,} files "
                        f"(such as {', '.join(show(task_id) for task_id in partial[:3])}{more}); "
                        "they have fewer samples than the others.")
    return (f"{files:,} files combined into one run of {len(files_of):,} problems: "
            "each problem's samples in every file were added up (n and c per task id).")
