#!/usr/bin/env python3
"""sw/study_arn_fig8.py without simulating (make test-net): a bad --only exits non-zero
naming it; the grid (2 applications x 2 routings x alone / tree), the asw trace and
asw net arguments (the 44 nodes left out of the application, the tree's window at the
paper's times / 20, the ARN + AFI profile); resumability (a second call runs nothing); another routing of the figure by --only;
the table's slowdown. A stub stands in for asw.
Usage: test_study_arn_fig8.py"""
import os
import stat
import subprocess
import sys
import tempfile

from checks import check, summary

# A stand-in for `asw trace` and `asw net`: logs its arguments, writes the trace file or
# a JSON whose completion is 1000 cycles alone and 1000 + hs_end - hs_start with a tree.
STUB = r'''#!/usr/bin/env python3
import json, sys
a = sys.argv[1:]
kv = dict(x.split("=", 1) for x in a if "=" in x)
open(sys.argv[0] + ".log", "a").write(" ".join(a) + "\n")
if a[0] == "trace":
    open(kv["out"], "w").write("nodes 432\n")
else:
    c = 1000 + (int(kv["hs_end"]) - int(kv["hs_start"]) if "trace_hs" in kv else 0)
    json.dump({"trace": {"completion_cycles": c, "completion_us": c * 0.00512}},
              open(a[a.index("--json") + 1], "w"))
'''
STUDY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "study_arn_fig8.py")


def main():
    with tempfile.TemporaryDirectory() as d:
        asw = os.path.join(d, "asw")
        open(asw, "w").write(STUB)
        os.chmod(asw, os.stat(asw).st_mode | stat.S_IEXEC)
        log = asw + ".log"
        out = os.path.join(d, "out")
        for bad, what in ((["--only", "colour=red"], "--only colour=red"),
                          (["--only", "app=ptrans,fft"], "fft not one of")):
            r = subprocess.run([sys.executable, STUDY, "--asw", asw, "--out", out, *bad],
                               capture_output=True, text=True)
            check(r.returncode != 0 and what in r.stderr, f"{' '.join(bad)}: exit {r.returncode}, "
                  f"message {r.stderr.strip()!r}")
        r = subprocess.run([sys.executable, STUDY, "--asw", asw, "--out", out],
                           capture_output=True, text=True)
        lines = open(log).read().splitlines() if os.path.exists(log) else []
        traces = [x for x in lines if x.startswith("trace ")]
        nets = [x for x in lines if x.startswith("net ")]
        check(r.returncode == 0 and len(traces) == 2 and len(nets) == 8,
              f"2 traces, 8 runs ({len(traces)}, {len(nets)}; {r.stderr[-300:]})")
        skip = [x for x in traces[0].split() if x.startswith("skip=")]
        ids = [int(v) for v in skip[0][5:].split(",")] if skip else []
        check(len(set(ids)) == 44 and 4 in ids and all(0 <= v < 432 for v in ids)
              and all("nodes=432" in t for t in traces),
              f"the application leaves out the hot node 4 and 43 hot sources ({len(ids)} ids)")
        tree = [x for x in nets if "trace_hs=0.1" in x]
        check(len(tree) == 4 and all("hs_nodes=4" in x and "hs_start=3662" in x for x in tree),
              "4 tree runs: HS10 to node 4 from 3 / 20 paper-ms (cycle 3662)")
        check(all("hs_end=125732" in x for x in tree if "ptrans" in x) and
              all("hs_end=491943" in x for x in tree if "inception" in x),
              "the tree lasts 100 / 20 paper-ms (PTRANS) and 400 / 20 (Inception)")
        arn = [x for x in nets if "routing=arn-afi" in x]
        check(len(arn) == 4 and all("vcs=2" in x and "buffer_flits=336" in x and "crt=6104" in x
                                    and "arn_up_nodes=1" in x for x in arn),
              "ARN + AFI: 1Q + AFC of 2 x 336 flits, CRT 6104, the text reading")
        row = [x for x in r.stdout.splitlines() if x.startswith("| inception | D-mod-K")]
        check(len(row) == 1 and "| 488281 | 488281 | 1.00 |" in row[0],
              f"table: slowdown and slowdown / tree ({row})")
        os.remove(log)
        r = subprocess.run([sys.executable, STUDY, "--asw", asw, "--out", out],
                           capture_output=True, text=True)
        check(r.returncode == 0 and not os.path.exists(log) and "| ptrans | ARN+AFI |" in r.stdout,
              "resumable: a second call runs nothing and prints the same table")
        r = subprocess.run([sys.executable, STUDY, "--asw", asw, "--out", out, "--only",
                            "routing=adaptive-th-afi", "--only", "app=ptrans"],
                           capture_output=True, text=True)
        nets = open(log).read().splitlines() if os.path.exists(log) else []
        check(r.returncode == 0 and len(nets) == 2 and all("vcs=2" in x and "routing=adaptive-th-afi"
                                                           in x for x in nets)
              and "| ptrans | D-mod-K |" in r.stdout and "| ptrans | Adaptive-Th+AFI |" in r.stdout,
              "--only routing=adaptive-th-afi: 2 runs with the AFC; the table keeps the finished runs")
    return summary("test_study_arn_fig8")


if __name__ == "__main__":
    sys.exit(main())
