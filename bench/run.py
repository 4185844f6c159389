"""`make bench`: our store side by side with the real pi on generated sessions of 1k, 10k and 100k entries.

Every measurement group runs in a fresh process (ours: ``bench.measure``; pi: ``bench/pi_bench.mjs`` on the
pinned pi in ``.pi-ref``), so each has its own peak RSS, read from ``wait4`` (the figure ``/usr/bin/time -v``
prints as "Maximum resident set size"). Times are medians over the repeats; appends go to scratch copies in
``bench/out/tmp``, never to the generated files. Prints one table, checks the targets on the 100k file and
writes everything to ``bench/out/store.json``.

    python -m bench.run [--sizes 1k,10k,100k] [--only store] [--skip-pi]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

from . import generate

PROJECT = Path(__file__).resolve().parents[1]
OUT_DIR = PROJECT / "bench" / "out"
SCRATCH = OUT_DIR / "tmp"
PI_BENCH = PROJECT / "bench" / "pi_bench.mjs"
INSTALL_PI = PROJECT / "conformance" / "install.sh"
CLI = PROJECT / ".venv" / "bin" / "pi-compact"
APPENDS = 1_000
EDGE = 100
APPEND_RUNS = 3
HELP_RUNS = 11
"""A start-up of ~150 ms swings by tens of ms with the neighbours' load: judged on the median of this many."""
"""Appends are reported as the median of the first and of the last ``EDGE``."""

TARGETS = {"open": 5.0, "context": 20.0, "peak_ratio": 0.5, "append_growth": 1.5, "help_s": 0.2}
"""open and context: speed-up over pi at least; peak: our peak / pi's at most; append_growth: median of the
last 100 appends / median of the first 100 at most (O(1)); help_s: wall time of ``pi-compact --help``."""

CLI_STANDIN = (
    "import sys, orjson; from pi_compact.session import Session; "
    "sys.stdout.buffer.write(orjson.dumps(Session.open(sys.argv[1]).build_context().to_json()))"
)


@dataclass
class Measured:
    stdout: bytes
    wall_s: float
    cpu_s: float
    """User + system CPU time: unlike the wall time, hardly inflated when other processes compete."""
    peak_mb: float
    returncode: int
    stderr: str

    def json(self, what: str) -> dict:
        if self.returncode != 0:
            raise RuntimeError(f"{what} failed (exit {self.returncode}):\n{self.stderr}")
        return orjson.loads(self.stdout.strip().splitlines()[-1])


def run_measured(cmd: list[str], *, capture: bool = True) -> Measured:
    """Run ``cmd``; its wall time and peak RSS (from ``wait4``, as ``/usr/bin/time -v`` reports it)."""
    SCRATCH.mkdir(parents=True, exist_ok=True)
    with open(SCRATCH / "stderr.txt", "w+b") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE if capture else subprocess.DEVNULL, stderr=err, cwd=PROJECT)
        out = proc.stdout.read() if proc.stdout is not None else b""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.stdout is not None:
            proc.stdout.close()
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    cpu = usage.ru_utime + usage.ru_stime
    return Measured(out, wall, cpu, usage.ru_maxrss / 1024, proc.returncode, stderr)


def scratch_copy(path: Path) -> Path:
    SCRATCH.mkdir(parents=True, exist_ok=True)
    copy = SCRATCH / path.name
    shutil.copyfile(path, copy)
    return copy


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# -- pi -------------------------------------------------------------------------------------------------------


def pi_available() -> str | None:
    """``None`` when the pinned pi is installed (installing it if needed), else why not."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not INSTALL_PI.exists():
        return f"{INSTALL_PI.relative_to(PROJECT)} is missing"
    done = subprocess.run(["bash", str(INSTALL_PI)], capture_output=True, text=True)
    return None if done.returncode == 0 else f"installing pi failed:\n{done.stderr}{done.stdout}"


def measure_pi(path: Path, appends: Path, repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        copy = scratch_copy(path)
        try:
            measured = run_measured(["node", str(PI_BENCH), str(copy), str(appends)])
        finally:
            copy.unlink(missing_ok=True)
        runs.append({**measured.json("pi_bench.mjs"), "peak_mb": measured.peak_mb})
    first = runs[0]
    return {
        "open_s": statistics.median(r["open_s"] for r in runs),
        "context_s": statistics.median(r["context_s"] for r in runs),
        "peak_mb": max(r["peak_mb"] for r in runs),
        "entries": first["entries"],
        "context": {k: first[k] for k in ("messages", "model", "thinkingLevel", "sha256")},
        "appends": append_summary(first["append_ms"]),
        "runs": len(runs),
    }


# -- ours -----------------------------------------------------------------------------------------------------


def measure_ours(path: Path, appends: Path, repeats: int) -> dict:
    reads = []
    for _ in range(repeats):
        measured = run_measured([sys.executable, "-m", "bench.measure", "read", str(path)])
        reads.append({**measured.json("bench.measure read"), "peak_mb": measured.peak_mb})
    result = {
        "open_s": statistics.median(r["open_s"] for r in reads),
        "context_s": statistics.median(r["context_s"] for r in reads),
        "entries": reads[0]["entries"],
        "context": {k: reads[0][k] for k in ("messages", "model", "thinkingLevel", "sha256")},
        "read_peak_mb": max(r["peak_mb"] for r in reads),
        "runs": len(reads),
    }
    peaks = [result["read_peak_mb"]]
    for durable in (True, False):
        runs = [measure_appends(path, appends, durable) for _ in range(APPEND_RUNS)]
        # A neighbour's burst of work slows a stretch of one run's appends: the run of median growth is
        # reported (judged on CPU time for fsync'd appends, wall time otherwise), with every run's growth.
        judged = [r["cpu"]["growth"] if durable else r["growth"] for r in runs]
        median_run = runs[judged.index(statistics.median_low(judged))]
        result["appends_durable" if durable else "appends_buffered"] = {**median_run, "growth_runs": judged}
        peaks.extend(r["peak_mb"] for r in runs)
    result["peak_mb"] = max(peaks)
    return result


def measure_appends(path: Path, appends: Path, durable: bool) -> dict:
    copy = scratch_copy(path)
    try:
        flag = "--durable" if durable else "--no-durable"
        measured = run_measured([sys.executable, "-m", "bench.measure", "append", str(copy), str(appends), flag])
    finally:
        copy.unlink(missing_ok=True)
    times = measured.json("bench.measure append")
    return {
        **append_summary(times["append_ms"]),
        "cpu": append_summary(times["append_cpu_ms"]),
        "peak_mb": measured.peak_mb,
    }


def append_summary(times_ms: list[float]) -> dict:
    if not times_ms:
        return {}
    first, last = statistics.median(times_ms[:EDGE]), statistics.median(times_ms[-EDGE:])
    return {
        "count": len(times_ms),
        "first100_median_ms": first,
        "last100_median_ms": last,
        "first100_mean_ms": statistics.fmean(times_ms[:EDGE]),
        "last100_mean_ms": statistics.fmean(times_ms[-EDGE:]),
        "total_s": sum(times_ms) / 1000,
        "growth": last / first if first > 0 else None,
    }


def cli_command() -> tuple[list[str], str | None]:
    """How to run `pi-compact session context FILE --json`, or a stand-in (and why) while it does not exist."""
    if CLI.exists():
        probe = subprocess.run([str(CLI), "session", "context", "--help"], capture_output=True, cwd=PROJECT)
        if probe.returncode == 0:
            return [str(CLI), "session", "context"], None
    return [sys.executable, "-c", CLI_STANDIN], "`pi-compact session context` not available yet: timed `python -c` doing the same"


def measure_cli(path: Path, repeats: int) -> dict:
    base, note = cli_command()
    cmd = base + [str(path)] + (["--json"] if note is None else [])
    check = run_measured(cmd)
    if check.returncode != 0:
        return {"error": check.stderr.strip().splitlines()[-1:] or ["failed"], "note": note}
    try:
        sha = hashlib.sha256(orjson.dumps(orjson.loads(check.stdout))).hexdigest()
    except orjson.JSONDecodeError:
        sha = None
    runs = [run_measured(cmd, capture=False) for _ in range(repeats)]
    return {
        "wall_s": statistics.median(r.wall_s for r in runs),
        "cpu_s": statistics.median(r.cpu_s for r in runs),
        "peak_mb": max(r.peak_mb for r in runs),
        "sha256": sha,
        "note": note,
    }


def measure_help() -> dict:
    if not CLI.exists():
        return {"error": f"{CLI.relative_to(PROJECT)} does not exist"}
    runs = [run_measured([str(CLI), "--help"], capture=False) for _ in range(HELP_RUNS)]
    if any(r.returncode != 0 for r in runs):
        failed = run_measured([str(CLI), "--help"])
        return {"error": (failed.stderr.strip().splitlines() or ["failed"])[-1]}
    return {
        "wall_s": statistics.median(r.wall_s for r in runs),
        "cpu_s": statistics.median(r.cpu_s for r in runs),
        "runs": [r.wall_s for r in runs],
    }


# -- report ---------------------------------------------------------------------------------------------------


def bench_file(name: str, appends: Path, args: argparse.Namespace) -> dict:
    path = generate.ensure(name)
    size = path.stat().st_size
    big = generate.SIZES[name] > 20_000
    log(f"{name}: ours …")
    row = {"file": path.name, "size": name, "bytes": size, "entries": generate.SIZES[name]}
    row["ours"] = measure_ours(path, appends, repeats=3)
    log(f"{name}: CLI …")
    row["cli"] = measure_cli(path, repeats=3)
    if not args.skip_pi:
        log(f"{name}: pi …")
        row["pi"] = measure_pi(path, appends, repeats=2 if big else 3)
        row["same_context"] = row["pi"]["context"]["sha256"] == row["ours"]["context"]["sha256"]
        row["cli_same_context"] = row["cli"].get("sha256") == row["pi"]["context"]["sha256"]
    return row


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a and b else None


def targets(rows: list[dict], help_result: dict) -> list[dict]:
    row = max(rows, key=lambda r: r["entries"])
    ours, pi = row["ours"], row.get("pi")
    checks = []

    def check(name: str, value: float | None, limit: float, at_least: bool, shown: str) -> None:
        ok = None if value is None else (value >= limit if at_least else value <= limit)
        checks.append({"target": name, "value": value, "limit": limit, "shown": shown, "pass": ok, "file": row["size"]})

    open_x = ratio(pi and pi["open_s"], ours["open_s"])
    check("open ≥ 5× faster than pi", open_x, TARGETS["open"], True, _x(open_x))
    context_x = ratio(pi and pi["context_s"], ours["context_s"])
    check("build_session_context ≥ 20× faster than pi", context_x, TARGETS["context"], True, _x(context_x))
    peak = ratio(ours["peak_mb"], pi and pi["peak_mb"])
    check("peak memory ≤ half of pi's", peak, TARGETS["peak_ratio"], False, "n/a" if peak is None else f"{peak:.2f}")
    # fsync's wait is the disk's (and every other process's on it), not ours: the durable appends are judged
    # on their CPU time, the buffered ones on the wall clock.
    durable, buffered = ours["appends_durable"]["cpu"]["growth"], ours["appends_buffered"]["growth"]
    shown = f"last/first 100 (median of {APPEND_RUNS} runs): fsync (cpu) {durable:.2f}, no fsync {buffered:.2f}"
    check("appends O(1) (last 100 ≤ 1.5× first 100)", max(durable, buffered), TARGETS["append_growth"], False, shown)
    help_s = help_result.get("wall_s")
    shown = f"{_t(help_s)} (cpu {_t(help_result['cpu_s'])})" if help_s else help_result.get("error", "n/a")
    check("pi-compact --help < 200 ms", help_s, TARGETS["help_s"], False, shown)
    return checks


def _t(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _x(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}×"


def _appends(summary: dict | None) -> str:
    if not summary:
        return "n/a"
    return f"{summary['first100_median_ms']:.2f}→{summary['last100_median_ms']:.2f}"


def table(rows: list[dict]) -> str:
    header = (
        "file", "MB", "entries", "open ours", "open pi", "×", "context ours", "context pi", "×", "msgs", "same",
        "append ms fsync", "no fsync", "pi", "peak MB ours", "pi", "ratio", "CLI context",
    )
    lines = [header]
    for row in rows:
        ours, pi, cli = row["ours"], row.get("pi") or {}, row["cli"]
        peak = ratio(ours["peak_mb"], pi.get("peak_mb"))
        lines.append((
            row["size"],
            f"{row['bytes'] / 1e6:.0f}",
            f"{ours['entries']:,}",
            _t(ours["open_s"]),
            _t(pi.get("open_s")),
            _x(ratio(pi.get("open_s"), ours["open_s"])),
            _t(ours["context_s"]),
            _t(pi.get("context_s")),
            _x(ratio(pi.get("context_s"), ours["context_s"])),
            f"{ours['context']['messages']:,}",
            {True: "yes", False: "NO"}.get(row.get("same_context"), "n/a"),
            _appends(ours["appends_durable"]),
            _appends(ours["appends_buffered"]),
            _appends(pi.get("appends")),
            f"{ours['peak_mb']:.0f}",
            f"{pi['peak_mb']:.0f}" if pi else "n/a",
            "n/a" if peak is None else f"{peak:.2f}",
            _t(cli.get("wall_s")) + ("*" if cli.get("note") else "") if "wall_s" in cli else "error",
        ))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(header))]
    out = []
    for n, line in enumerate(lines):
        cells = [str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(line, widths))]
        out.append("  ".join(cells))
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def report(rows: list[dict], help_result: dict, checks: list[dict], load: dict) -> str:
    notes = {row["cli"]["note"] for row in rows if row["cli"].get("note")}
    parts = [table(rows), ""]
    parts.append("open = Session.open / SessionManager.open (read, parse what is needed, index); context = build_context /")
    parts.append("buildSessionContext on the leaf; same = identical context JSON (sha256) in pi and ours; append ms = median")
    parts.append(f"of the first → last {EDGE} of {APPENDS} appendMessage calls (wall; the O(1) check uses CPU time for fsync'd")
    parts.append("appends, whose wait is the disk's); peak = max RSS of the whole process (wait4);")
    parts.append("CLI context = wall time of the whole `pi-compact session context FILE --json > /dev/null` process.")
    for note in sorted(notes):
        parts.append(f"* {note}")
    busy = max(load["before"], load["after"]) > load["cpus"]
    parts.append(
        f"Load average (1 min) before/after: {load['before']:.1f}/{load['after']:.1f} on {load['cpus']} CPUs"
        + (": the machine was busy, times are inflated and noisy (ratios less so)." if busy else ".")
    )
    parts.append("")
    measured_on = checks[0]["file"]
    parts.append(f"Targets (set for the 100k file; measured on the {measured_on} file):")
    width = max(len(c["target"]) for c in checks)
    for c in checks:
        verdict = {True: "PASS", False: "FAIL", None: "n/a"}[c["pass"]]
        parts.append(f"  {c['target'].ljust(width)}  {c['shown']:>40}  {verdict}")
    if help_result.get("runs"):
        parts.append(f"  (--help runs: {', '.join(_t(s) for s in help_result['runs'])})")
    return "\n".join(parts)


def git_commit() -> str | None:
    """HEAD, with ``+dirty`` when the work tree differs: what the figures were measured on."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=PROJECT)
    if head.returncode != 0:
        return None
    dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "pi_compact"], cwd=PROJECT).returncode != 0
    return head.stdout.strip() + ("+dirty" if dirty else "")


def appends_file() -> Path:
    path = generate.DATA_DIR / f"appends-{APPENDS}-v{generate.GENERATOR_VERSION}.json"
    if not path.exists():
        generate.DATA_DIR.mkdir(parents=True, exist_ok=True)
        for old in generate.DATA_DIR.glob("appends-*.json"):
            old.unlink()
        path.write_bytes(orjson.dumps(generate.append_messages(APPENDS)))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(generate.SIZES), help="comma-separated: " + ", ".join(generate.SIZES))
    parser.add_argument("--only", choices=("store",), default="store", help="benchmark group (only `store` so far)")
    parser.add_argument("--skip-pi", action="store_true", help="do not run the real pi")
    args = parser.parse_args(argv)
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    unknown = [s for s in sizes if s not in generate.SIZES]
    if unknown:
        parser.error(f"unknown size(s) {', '.join(unknown)}; choose from {', '.join(generate.SIZES)}")
    if not args.skip_pi:
        reason = pi_available()
        if reason is not None:
            log(f"pi not measured: {reason}")
            args.skip_pi = True
    started, load_before = time.perf_counter(), os.getloadavg()
    # Start-up first: right after pi's 2 GB runs the kernel is still reclaiming memory, which slows it.
    help_result = measure_help()
    appends = appends_file()
    rows = [bench_file(name, appends, args) for name in sizes]
    checks = targets(rows, help_result)
    shutil.rmtree(SCRATCH, ignore_errors=True)
    load = {"before": load_before[0], "after": os.getloadavg()[0], "cpus": os.cpu_count()}
    print(report(rows, help_result, checks, load))
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    result = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "load_average_1min": load,
        "commit": git_commit(),
        "generator_version": generate.GENERATOR_VERSION,
        "files": rows,
        "help": help_result,
        "targets": checks,
        "elapsed_s": time.perf_counter() - started,
    }
    (OUT_DIR / "store.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    log(f"written {OUT_DIR.relative_to(PROJECT) / 'store.json'} in {result['elapsed_s']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
