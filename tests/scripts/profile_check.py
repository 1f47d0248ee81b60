#!/usr/bin/python3
"""profile_check.py: the `profile` block of eigen reports is well formed and consistent.

usage: profile_check.py NRANKS REPORT...

For each report of a run on NRANKS ranks: format_minor 2 or more (3: a model's undamped
report with participation); profile.time_s holds the total (equal to timings_s.total)
and the 12 parts, every one a number >= 0, the parts summing to at most the total; the
missed-mode check's share in [0, 1]; the solve counts add up (single + multi-RHS
right-hand sides = right-hand sides); peak_memory_bytes has one entry per rank, each > 0,
with peak_rank, max and sum consistent with them; the floor, when present, is > 0 with
ratio = total / floor. Only structure and consistency: no time is compared with an
expected value. Exit status 0 when every report passes.
"""
import math
import re
import sys

import yaml

PARTS = ["pencil", "analysis", "factorization", "solves", "operator_other",
         "orthogonalization", "schur", "basis_rotations", "krylov_other", "post_processing",
         "missed_mode_check", "other"]


def header(path):
    """The report's top-level keys before `model:` or `modes:` (the long lists)."""
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if re.match(r"^(model|modes):", line):
                break
            lines.append(line)
    return yaml.load("".join(lines), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check(path, nranks):
    """The list of problems of one report (empty when it passes)."""
    bad = []
    h = header(path)
    if not isinstance(h.get("format_minor"), int) or h.get("format_minor") < 2:
        bad.append("format_minor is %r, not 2 or more" % h.get("format_minor"))
    p = h.get("profile")
    if not isinstance(p, dict):
        return bad + ["no profile block"]
    t = p.get("time_s", {})
    keys = list(t.keys())
    if keys != ["total"] + PARTS:
        bad.append("time_s keys %s" % keys)
    if not all(number(t.get(k)) and t[k] >= 0 for k in ["total"] + PARTS):
        bad.append("a time is missing, not a number or negative: %s" % t)
        return bad
    total = t["total"]
    if total != h["timings_s"]["total"]:
        bad.append("time_s.total %r differs from timings_s.total %r"
                   % (total, h["timings_s"]["total"]))
    parts = sum(t[k] for k in PARTS)
    if parts > total * (1 + 1e-12) + 1e-12:
        bad.append("the parts sum to %r, above the total %r" % (parts, total))
    share = p.get("missed_mode_check_share")
    if not (number(share) and 0 <= share <= 1):
        bad.append("missed_mode_check_share %r" % share)
    mc = h.get("missed_mode_check")
    if mc and t["missed_mode_check"] > mc["time_s"] * (1 + 1e-12):
        bad.append("the check's part %r exceeds missed_mode_check.time_s %r"
                   % (t["missed_mode_check"], mc["time_s"]))
    s = p.get("solves", {})
    if not all(isinstance(s.get(k), int) and s[k] >= 0 for k in
               ["right_hand_sides", "single", "multi_rhs", "multi_rhs_right_hand_sides"]):
        bad.append("solve counts %s" % s)
    elif s["single"] + s["multi_rhs_right_hand_sides"] != s["right_hand_sides"]:
        bad.append("single + multi-RHS right-hand sides != right-hand sides: %s" % s)
    if not (isinstance(s.get("block_size"), int) and s["block_size"] >= 1):
        bad.append("block_size %r" % s.get("block_size"))
    if not (number(s.get("time_per_rhs_s")) and s["time_per_rhs_s"] >= 0):
        bad.append("time_per_rhs_s %r" % s.get("time_per_rhs_s"))
    fl = p.get("floor")
    if fl is not None:
        if not (number(fl.get("time_s")) and fl["time_s"] > 0):
            bad.append("floor.time_s %r" % fl.get("time_s"))
        elif not (number(fl.get("ratio"))
                  and abs(fl["ratio"] - total / fl["time_s"]) <= 1e-12 * fl["ratio"]):
            bad.append("floor.ratio %r is not total / floor" % fl.get("ratio"))
        if not (isinstance(fl.get("solves"), int) and fl["solves"] >= s.get("block_size", 1)):
            bad.append("floor.solves %r" % fl.get("solves"))
        if not (number(fl.get("orthogonalization_flop")) and fl["orthogonalization_flop"] > 0
                and number(fl.get("blas3_flop_per_s")) and fl["blas3_flop_per_s"] > 0):
            bad.append("floor flops or rate: %s" % fl)
    m = p.get("peak_memory_bytes")
    if not isinstance(m, dict):
        return bad + ["no peak_memory_bytes"]
    ranks = m.get("ranks")
    if not (isinstance(ranks, list) and len(ranks) == nranks):
        return bad + ["%r memory entries for %d ranks" % (ranks, nranks)]
    if not all(isinstance(v, int) and v > 0 for v in ranks):
        bad.append("a rank's memory is not > 0: %s" % ranks)
    elif (m.get("max") != max(ranks) or m.get("sum") != sum(ranks)
          or m.get("peak_rank") != ranks.index(max(ranks))):
        bad.append("peak_rank, max, sum %r, %r, %r do not match %s"
                   % (m.get("peak_rank"), m.get("max"), m.get("sum"), ranks))
    return bad


def main():
    nranks = int(sys.argv[1])
    failed = 0
    for path in sys.argv[2:]:
        bad = check(path, nranks)
        for b in bad:
            print("FAIL %s: %s" % (path, b))
        failed += bool(bad)
    print("%d reports: profile well formed on %d rank%s, %d failed"
          % (len(sys.argv) - 2, nranks, "s" if nranks > 1 else "", failed))
    return 1 if failed or len(sys.argv) < 3 else 0


if __name__ == "__main__":
    sys.exit(main())
