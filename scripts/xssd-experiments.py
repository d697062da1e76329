#!/usr/bin/env python3
"""Runs the X-SSD paper's experiments on scenarios/xssd/ with the native CLI
and prints the tables quoted in docs/validation.md.

Usage: python3 scripts/xssd-experiments.py [path/to/ssdplay]
(default: build/release/ssdplay, built by `npm test` or `npm run build:native`).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SSDPLAY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "release", "ssdplay")


def run(scenario, *sets):
    args = [SSDPLAY, "run", os.path.join(ROOT, "scenarios", "xssd", scenario), "--format", "json"]
    for s in sets:
        args += ["--set", s]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def logging_vs_workers():
    print("## Local logging: transaction latency (us) and throughput (txn/s) by workers")
    print("| workers | " + " | ".join(f"{t} latency | {t} txn/s" for t in ("sram", "dram", "nvme", "none")) + " |")
    for w in (1, 2, 4, 8):
        cells = []
        for t in ("sram", "dram", "nvme", "none"):
            d = run(f"log-{t}.json", f"workload.db_log.workers={w}")["db_log"]
            cells += [f"{d['latency_mean_us']:.0f}", f"{d['txn_per_s']:.0f}"]
        print(f"| {w} | " + " | ".join(cells) + " |")


def write_combining():
    print("## CMB write throughput (MB/s, 32 KiB per x_pwrite+x_fsync) by chunk size")
    sizes = (1, 2, 4, 8, 16, 32, 64)
    print("| backing, mode | " + " | ".join(f"{c} B" for c in sizes) + " |")
    for backing in ("sram", "dram"):
        for mode in ("write-combining", "uncached"):
            cells = []
            for c in sizes:
                d = run("write-combining.json", f"device.xssd.cmb.backing={backing}",
                        f"device.xssd.host.write_mode={mode}", f"device.xssd.host.chunk_bytes={c}")["db_log"]
                cells.append(f"{32768 / d['flush_us_mean']:.0f}")
            print(f"| {backing}, {mode} | " + " | ".join(cells) + " |")


def queue_size():
    print("## Queue size vs group size: commit latency (us) / throughput during the write (MB/s)")
    groups = (4096, 16384, 32768, 65536)
    print("| queue | " + " | ".join(f"group {g // 1024} KiB" for g in groups) + " |")
    for q in (4096, 8192, 16384, 32768, 65536):
        cells = []
        for g in groups:
            d = run("queue-size.json", f"device.xssd.cmb.queue_bytes={q}", f"workload.db_log.record_bytes={g}",
                    f"workload.db_log.group_commit_bytes={g}")["db_log"]
            cells.append(f"{d['flush_us_mean']:.1f} / {g / d['flush_us_mean']:.0f}")
        print(f"| {q // 1024} KiB | " + " | ".join(cells) + " |")


def opportunistic_destage():
    print("## Opportunistic destaging: conventional MB/s / fast-side MB/s by fast-side demand")
    print("| fast demand | neutral | conventional priority |")
    for share, compute in ((30, 624000), (40, 468000), (50, 374000), (60, 312000)):
        cells = []
        for f in ("destage-neutral.json", "destage-conventional-priority.json"):
            m = run(f, f"workload.db_log.txn_compute_ns={compute}")
            cells.append(f"{m['host']['mbps'] - m['db_log']['log_mbps'] * 0:.0f} / {m['db_log']['log_mbps']:.0f}")
        print(f"| {share}% ({131072 / compute * 1000:.0f} MB/s) | " + " | ".join(cells) + " |")


def replication_delay():
    print("## Replication delay (us): min / p50 / max, and the update traffic's share of PCIe")
    print("| update period | delay min | p50 | max | PCIe share |")
    for period in (400, 800, 1200, 1600):
        x = run("replication.json", f"device.xssd.transport.secondaries[0].update_period_ns={period}")["xssd"]
        s = x["secondaries"][0]
        print(f"| {period / 1000:.1f} us | {s['repl_delay_min_us']:.2f} | {s['repl_delay_p50_us']:.2f} | "
              f"{s['repl_delay_max_us']:.2f} | {x['update_share'] * 100:.2f}% |")


if __name__ == "__main__":
    for table in (logging_vs_workers, write_combining, queue_size, opportunistic_destage, replication_delay):
        table()
        print()
