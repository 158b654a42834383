#!/usr/bin/env python3
"""sw/study_arn_paper.py without simulating (make test-net): malformed parameters exit
non-zero with a message naming them; the grid (seed axis on HS10/HS25 only, configuration
#2's 24-port network and c2_ names, threads passed to asw net but not part of a name);
resumability (a finished run is skipped, an interrupted one, left as .part files, is
redone); the plot's table (mean and min–max over seeds). A stub stands in for asw.
Usage: test_study_arn_paper.py"""
import os
import stat
import subprocess
import sys
import tempfile

from checks import check, summary

HERE = os.path.dirname(os.path.abspath(__file__))
STUDY = os.path.join(HERE, "study_arn_paper.py")

# A stand-in for `asw net`: writes the CSV (efficiency 0.9 before the hot spot, then
# 0.1 + 0.1 x seed) and the JSON it is asked for, and logs its arguments.
STUB = r'''#!/usr/bin/env python3
import sys
a = sys.argv[2:]
kv = dict(x.split("=", 1) for x in a if "=" in x)
j, c = a[a.index("--json") + 1], a[a.index("--csv") + 1]
with open(c, "w") as f:
    f.write("cycle,time_us,offered,accepted\n")
    cyc, w = int(kv["cycles"]), int(kv["window"])
    for t in range(w, cyc + 1, w):
        e = 0.9 if t <= int(kv["hs_start"]) else 0.1 + 0.1 * int(kv["seed"])
        f.write(f"{t},0,1,{e}\n")
open(j, "w").write("{}\n")
open(sys.argv[0] + ".log", "a").write(" ".join(a) + "\n")
'''


def study(*args):
    r = subprocess.run([sys.executable, STUDY, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def main():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        for bad, what in [(["--only", "traffic=hs10"], "hs10"),
                          (["--only", "speed=1"], "speed"),
                          (["--only", "seed=4"], "4"),
                          (["--config", "3"], "--config 3"),
                          (["--threads", "0"], "--threads 0"),
                          (["--threads", "two"], "--threads two"),
                          (["--seeds", "1,x"], "--seeds"),
                          (["--after-ms", "0"], "--after-ms")]:
            rc, _, err = study("--out", out, *bad, "list")
            check(rc != 0 and what in err, f"{' '.join(bad)}: exit {rc}, message {err!r}")

        rc, lst, _ = study("--out", out, "list")
        lines = lst.splitlines()
        # 3 seeds x 2 traffics + 1 seed x 3 traffics, x 4 schemes x 6 routings
        check(rc == 0 and len(lines) == (3 * 2 + 3) * 4 * 6, f"full grid: {len(lines)} runs")
        check(all("ports=12" in x for x in lines), "configuration #1: 12-port switches")

        only = ["--only", "traffic=hs10-1", "--only", "scheme=1q", "--only",
                "routing=dmodk,arn-afi"]
        rc, lst, _ = study("--out", out, "--config", "2", "--threads", "2", "--seeds", "1,2",
                           *only, "list")
        lines = lst.splitlines()
        check(rc == 0 and len(lines) == 4, f"configuration #2, 2 seeds x 2 routings: {lines}")
        check(all("ports=24" in x and "threads=2" in x and "/c2_hs10-1_1q_" in x
                  for x in lines), "configuration #2: 24 ports, threads=2, c2_ names")
        check(all("arn_up_nodes=1" in x for x in lines if "routing=arn-afi" in x),
              "ARN + AFI runs with the text reading")

        asw = os.path.join(d, "asw")
        open(asw, "w").write(STUB)
        os.chmod(asw, os.stat(asw).st_mode | stat.S_IEXEC)
        common = ["--asw", asw, "--out", out, "--after-ms", "6", *only]
        rc, so, se = study(*common, "run")
        runs = os.path.join(out, "runs")
        names = sorted(x for x in os.listdir(runs) if x.endswith(".json"))
        check(rc == 0 and len(names) == 6, f"run: 6 runs finished ({names}, {so} {se})")
        # An interrupted run: its JSON gone, .part files left; the rerun redoes only it.
        victim = "hs10-1_1q_arn-afi_s2_6ms"
        os.remove(os.path.join(runs, victim + ".json"))
        open(os.path.join(runs, victim + ".part.json"), "w").write("")
        os.remove(asw + ".log")
        rc, so, _ = study(*common, "run")
        redone = open(asw + ".log").read().splitlines()
        check(rc == 0 and len(redone) == 1 and "seed=2" in redone[0]
              and "routing=arn-afi" in redone[0] and "5 runs kept, 1 to run" in so,
              f"resume: only the interrupted run redone ({so!r}, {redone})")
        check(not any(".part" in x for x in os.listdir(runs)), "no .part file left")

        rc, table, err = study("--out", out, "--after-ms", "6", *only, "plot",
                               "--fig-dir", os.path.join(d, "fig"))
        row = [x for x in table.splitlines() if "| ARN+AFI |" in x]
        check(rc == 0 and len(row) == 1 and "| 3 |" in row[0]
              and "0.300 (0.200–0.400)" in row[0], f"plot table: {row} {err}")
        check(os.path.exists(os.path.join(d, "fig", "arn_paper_hs10-1_1q.png")),
              "plot: arn_paper_hs10-1_1q.png written")
    return summary("test_study_arn_paper")


if __name__ == "__main__":
    sys.exit(main())
