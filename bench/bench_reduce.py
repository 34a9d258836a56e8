"""Reduce a log of one row per sample to per-problem counts (n, c) with each engine, in bounded memory (issue 17 §5).

    .venv/bin/python bench/bench_reduce.py               # 10^8 rows (100,000 problems × 1,000 samples): ~3 min
    .venv/bin/python bench/bench_reduce.py --rows 1000000 --problems 1000   # a few seconds
    .venv/bin/python bench/bench_reduce.py --jsonl-rows 100000000           # a JSONL log of 10^8 rows too: ~8 min

The log is written once (pyarrow, 1,000,000 rows a row group) to --dir (default /tmp, not committed) and kept
for the next run: a column "task" ("problem-000042", a string), a column "correct" (bool), the samples of all
problems interleaved (row i is sample i // P of problem i % P), so that every problem's count stays open to
the end of the scan, the worst case for a streaming group-by. Each engine runs in a fresh child process that
imports it, reduces the file and reports its wall and CPU seconds (the machine's other work lengthens the first)
and its peak resident memory (VmHWM, the interpreter and the engine's libraries included); each engine's counts
are checked equal to the baseline's. "passk" is passk.results.frames.reduce_log: DuckDB with its checks (nulls, 0/1).
The baseline is the obvious in-memory way: pyarrow.parquet.read_table of the two columns (pyarrow.json.read_json
of a JSONL log), then Table.group_by. The figures are written to bench/data/bench_reduce.json too (not committed).
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATCH_ROWS = 1_000_000
ENGINES = ("baseline", "pyarrow-batches", "polars-streaming", "duckdb", "passk")
JSONL_ENGINES = ("baseline", "polars-streaming", "duckdb", "passk")


def write_log(path: Path, rows: int, problems: int) -> None:
    """Write the log of rows samples over problems problems (Parquet or JSONL by path's suffix), once."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq
    names = np.array([f"problem-{index:06d}" for index in range(problems)], dtype=object)
    rates = np.arange(problems) % 1001   # problem p passes (p % 1001) in 1,000 samples, spread over the samples
    temporary = path.with_suffix(path.suffix + ".part")
    writer = pq.ParquetWriter(temporary, pa.schema([("task", pa.string()), ("correct", pa.bool_())])) \
        if path.suffix == ".parquet" else None
    with open(temporary, "ab") if writer is None else open(os.devnull, "wb") as text:
        for start in range(0, rows, BATCH_ROWS):
            index = np.arange(start, min(start + BATCH_ROWS, rows), dtype=np.int64)
            problem, sample = index % problems, index // problems
            correct = (sample * 7919 + problem * 104729) % 1000 < rates[problem]
            if writer is not None:
                writer.write_table(pa.table({"task": pa.array(names[problem], pa.string()),
                                             "correct": pa.array(correct)}))
            else:
                text.write("".join(f'{{"task": "{name}", "correct": {"true" if ok else "false"}}}\n'
                                   for name, ok in zip(names[problem], correct.tolist())).encode())
    if writer is not None:
        writer.close()
    temporary.rename(path)


def reduce_with(engine: str, path: str) -> dict[str, int]:
    """The per-problem counts of the log at path, by engine, as {task: n * 2**32 + c}."""
    parquet = path.endswith(".parquet")
    if engine == "baseline":
        import pyarrow.json as pj
        import pyarrow.parquet as pq
        table = pq.read_table(path, columns=["task", "correct"]) if parquet else pj.read_json(path)
        grouped = table.group_by("task").aggregate([("correct", "count"), ("correct", "sum")])
        return _counts(grouped["task"].to_pylist(), grouped["correct_count"].to_pylist(),
                       grouped["correct_sum"].to_pylist())
    if engine == "pyarrow-batches":
        import pyarrow as pa
        import pyarrow.dataset as ds
        partials: list[pa.Table] = []
        rows = 0
        for batch in ds.dataset(path, format="parquet").to_batches(columns=["task", "correct"]):
            part = pa.Table.from_batches([batch]).group_by("task").aggregate([("correct", "count"),
                                                                              ("correct", "sum")])
            partials.append(part.rename_columns(["task", "n", "c"]))
            rows += part.num_rows
            if len(partials) > 1 and rows > 4_000_000:   # fold the partial counts into one table
                partials, rows = [_fold(partials)], 0
                rows = partials[0].num_rows
        folded = _fold(partials)
        return _counts(folded["task"].to_pylist(), folded["n"].to_pylist(), folded["c"].to_pylist())
    if engine == "polars-streaming":
        import polars as pl
        scan = pl.scan_parquet(path) if parquet else pl.scan_ndjson(path)
        frame = scan.group_by("task").agg(pl.len().alias("n"), pl.col("correct").sum().alias("c")) \
            .collect(engine="streaming")
        return _counts(frame["task"].to_list(), frame["n"].to_list(), frame["c"].to_list())
    if engine == "duckdb":
        import duckdb
        reader = "read_parquet" if parquet else "read_json_auto"
        rows = duckdb.execute(f"SELECT task, count(*), sum(correct::INTEGER) FROM {reader}($path) GROUP BY task",
                              {"path": path}).fetchall()
        tasks, ns, cs = zip(*rows)
        return _counts(list(tasks), list(ns), list(cs))
    if engine == "passk":
        sys.path.insert(0, str(ROOT))
        from passk.results.frames import reduce_log
        problems = reduce_log(path, task="task", correct="correct")
        return _counts([p.task_id for p in problems], [p.n for p in problems], [p.c for p in problems])
    raise ValueError(f"unknown engine {engine}")


def _fold(partials):   # type: ignore[no-untyped-def]
    import pyarrow as pa
    folded = pa.concat_tables(partials).group_by("task").aggregate([("n", "sum"), ("c", "sum")])
    return folded.rename_columns(["task", "n", "c"])


def _counts(tasks: list[str], ns: list[int], cs: list[int]) -> dict[str, int]:
    return {task: n * 2**32 + c for task, n, c in zip(tasks, ns, cs)}


def child(engine: str, path: str) -> None:
    """Run one engine and print its figures as JSON (in a fresh process)."""
    start, cpu = time.perf_counter(), time.process_time()
    counts = reduce_with(engine, path)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    status = Path("/proc/self/status").read_text()
    peak_kb = int(next(line for line in status.splitlines() if line.startswith("VmHWM")).split()[1])
    checksum = hash(frozenset(counts.items()))
    print(json.dumps({"engine": engine, "seconds": seconds, "cpu_seconds": cpu, "peak_mb": peak_kb / 1024,
                      "problems": len(counts),
                      "samples": sum(value >> 32 for value in counts.values()),
                      "passed": sum(value & (2**32 - 1) for value in counts.values()), "checksum": checksum}))


def measure(engines: tuple[str, ...], path: Path) -> list[dict[str, float]]:
    figures = []
    for engine in engines:
        completed = subprocess.run([sys.executable, __file__, "--child", engine, str(path)], capture_output=True,
                                   text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        if completed.returncode != 0:
            print(f"{engine}: failed\n{completed.stderr[-2000:]}", file=sys.stderr)
            continue
        figures.append(json.loads(completed.stdout.splitlines()[-1]))
    baseline = figures[0]
    print(f"\n{path.name}: {os.path.getsize(path) / 1e6:,.0f} MB on disk")
    print(f"{'engine':<18} {'seconds':>8} {'CPU s':>7} {'peak MB':>9} {'× time':>7} {'× memory':>9}  counts")
    for row in figures:
        same = "= baseline" if row["checksum"] == baseline["checksum"] else "DIFFER"
        print(f"{row['engine']:<18} {row['seconds']:>8.1f} {row['cpu_seconds']:>7.1f} {row['peak_mb']:>9,.0f} "
              f"{row['seconds'] / baseline['seconds']:>7.2f} {row['peak_mb'] / baseline['peak_mb']:>9.2f}  "
              f"{row['problems']:,} problems, {row['samples']:,} samples, {row['passed']:,} passed, {same}")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10**8, help="samples in the Parquet log (default 10^8)")
    parser.add_argument("--problems", type=int, default=100_000, help="problems (default 100,000)")
    parser.add_argument("--jsonl-rows", type=int, default=0, help="also a JSONL log of this many rows (0: none)")
    parser.add_argument("--dir", default="/tmp", help="where the logs are written once and kept (default /tmp)")
    parser.add_argument("--engines", default=",".join(ENGINES), help="which engines, comma-separated")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(*args.child)
    chosen = tuple(args.engines.split(","))
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.2f}")
    results = {}
    logs = [(args.rows, ".parquet", chosen)]
    if args.jsonl_rows:
        logs.append((args.jsonl_rows, ".jsonl", tuple(e for e in chosen if e in JSONL_ENGINES)))
    for rows, suffix, engines in logs:
        path = Path(args.dir) / f"passk_reduce_{rows}_{args.problems}{suffix}"
        if not path.exists():
            start = time.perf_counter()
            write_log(path, rows, args.problems)
            print(f"wrote {path} in {time.perf_counter() - start:.0f} s")
        results[path.name] = {"rows": rows, "problems": args.problems, "figures": measure(engines, path)}
    print(f"load {os.getloadavg()[0]:.2f}")
    output = ROOT / "bench" / "data" / "bench_reduce.json"
    output.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
