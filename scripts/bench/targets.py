#!/usr/bin/python3
"""targets.py: the table of scripts/bench/targets.sh: issue 23's targets, ratios to the best peer.

usage: targets.py OUT NEV DAMPED_MODES GRIDS NPS PEERS RANK_GRID RANK_NPS DAMPED_GRID DAMPED_NPS
(the lists as space-separated words; an empty RANK_GRID or DAMPED_GRID skips that part).
A case run more than once (targets.sh's REPEAT) counts by its run of median wall time.
Reads OUT/header.txt, OUT/meta.txt and the case directories OUT/CASE written by targets.sh: run.time.R (GNU time -v
of rank R), wall, rc, log, sizes.txt, out/bench.modal.yaml or out/bench.complex.yaml (mbmodal),
peer.eig (the peer). Prints the table; exit status 0 (the targets are reported, not enforced).
Issue 23's targets: time at most TIME_TARGET x the best peer's and memory at most the peer's on
every grid and rank count (and the damped stage against the complex peer); the stage within
FLOOR_TARGET x its own floor (the log's "the stage took X x the floor"); right-hand sides
solved at most SOLVES_TARGET x the Ritz pairs converged. Each ratio's spread over the repeats:
repeat k of mbmodal against repeat k of the best peer (they ran one after the other).
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import ranks, mbmodal_eigs  # noqa: E402  (the same time/memory/eigenvalue reading as run.sh)

TIME_TARGET = 0.35
FLOOR_TARGET = 2.0
SOLVES_TARGET = 1.5

try:
    import yaml
except ImportError:                          # only the breakdown needs it
    yaml = None


def case(out, name):
    """a case run REPEAT times (directories NAME, NAME.r2, NAME.r3, ...): the run of median wall
    time (the lower middle of an even count; a failed repeat makes the case failed), with
    walls = every repeat's wall time; None when the case did not run"""
    runs = [one_run(out, name)]
    k = 2
    while runs[-1] is not None and os.path.isdir(os.path.join(out, f"{name}.r{k}")):
        runs.append(one_run(out, f"{name}.r{k}"))
        k += 1
    if runs[0] is None:
        return None
    bad = [r for r in runs if not r["ok"]]
    if bad:
        return bad[0]
    order = [r["wall"] for r in runs]         # in the order they ran
    runs.sort(key=lambda r: r["wall"])
    med = dict(runs[(len(runs) - 1) // 2])
    med["walls"] = [r["wall"] for r in runs]
    med["walls_in_order"] = order
    return med


def spread(a, peers):
    """(min, max) over the repeats k of a's wall k / the fastest peer's wall k, or None"""
    if a is None or not peers:
        return None
    ks = min([len(a.get("walls_in_order", []))] + [len(p.get("walls_in_order", [])) for p in peers])
    if ks < 2:
        return None
    r = [a["walls_in_order"][k] / min(p["walls_in_order"][k] for p in peers) for k in range(ks)]
    return min(r), max(r)


def fmt_spread(sp):
    return f" ({sp[0]:.2f}..{sp[1]:.2f})" if sp else ""


def floor_and_solves(log):
    """(stage / its own floor, solves / converged Ritz pairs) from mbmodal's -v log: the
    largest over the log's shifts and stages, or None where the log does not say"""
    fl = [float(x) for x in re.findall(r"the stage took ([0-9.]+) x the floor", log)]
    sv = [int(a) / int(b) for b, a in re.findall(r"(\d+) Ritz pairs converged after \d+ restarts?, "
                                                   r"[0-9.]+ s \((\d+) solves", log) if int(b) > 0]
    return (max(fl) if fl else None), (max(sv) if sv else None)


def one_run(out, name):
    """one run: dict with wall [s] (slowest rank), cpu [s] (sum), mem [MB] (sum of peaks), ok,
    log text, n (DOFs) and the directory; None when the case did not run."""
    d = os.path.join(out, name)
    if not os.path.isdir(d):
        return None
    rss, el, nr, good, cpu = ranks(d, "run")
    try:
        rc = int(open(os.path.join(d, "rc")).read().split()[0])
    except (OSError, ValueError, IndexError):
        rc = -1
    try:
        log = open(os.path.join(d, "log"), errors="replace").read()
    except OSError:
        log = ""
    n = None
    try:
        m = re.search(r"n=(\d+)", open(os.path.join(d, "sizes.txt")).read())
        n = int(m.group(1)) if m else None
    except OSError:
        pass
    return dict(dir=d, wall=el if nr else None, cpu=cpu if nr else None, mem=rss / 1024.0 if nr else None,
                ok=good and rc == 0, ran=nr > 0, rc=rc, log=log, n=n)


def real_eigs(c):
    """sorted eigenvalues of an undamped case (mbmodal report or peer.eig), or None"""
    if c is None or not c["ok"]:
        return None
    rep = os.path.join(c["dir"], "out", "bench.modal.yaml")
    if os.path.exists(rep):
        return mbmodal_eigs(rep)
    try:
        return sorted(float(x) for x in open(os.path.join(c["dir"], "peer.eig")).read().split())
    except (OSError, ValueError):
        return None


def complex_eigs(c):
    """eigenvalues of a damped case with Im >= 0 (one per conjugate pair), by |lambda|, or None;
    also of a run that failed after writing its report (mbmodal exits 4 when some true
    residuals stay above 10 x the tolerance, and still writes the modes)"""
    if c is None or not c["ran"]:
        return None
    vals = []
    rep = os.path.join(c["dir"], "out", "bench.complex.yaml")
    try:
        if os.path.exists(rep):
            text = open(rep).read()
            for re_, im in re.findall(r"^\s*eigenvalue: \[([-+0-9.eE]+), ([-+0-9.eE]+)\]", text, re.M):
                vals.append(complex(float(re_), float(im)))
        else:
            for line in open(os.path.join(c["dir"], "peer.eig")):
                w = line.split()
                if len(w) == 2 and float(w[1]) >= 0:
                    vals.append(complex(float(w[0]), float(w[1])))
    except (OSError, ValueError):
        return None
    return sorted(vals, key=lambda z: (abs(z), z.imag)) or None


def real_diff(a, b, k):
    """max relative difference of the first k of two ascending lists (compare.py's measure:
    |a-b| / max(|a|, |b|, 1e-8 max|all|)) and the mode where it occurs"""
    if not a or not b:
        return None, None
    k = min(k, len(a), len(b))
    fl = 1e-8 * max(abs(x) for x in a[:k] + b[:k])
    d = [abs(x - y) / max(abs(x), abs(y), fl) for x, y in zip(a[:k], b[:k])]
    i = max(range(k), key=d.__getitem__)
    return d[i], i + 1


def complex_diff(a, b, k):
    """max over a's first k of |a_i - nearest b| / |a_i|: each eigenvalue matched to the nearest
    of the other list (conjugate pairs and near-ties make a mode-by-mode order unreliable)"""
    if not a or not b:
        return None
    return max(min(abs(x - y) for y in b) / max(abs(x), 1e-300) for x in a[:k])


def fmt(x, spec, dash="-"):
    return format(x, spec) if x is not None else dash


def ratio(a, b):
    return a / b if a is not None and b else None


def check_share(log):
    """(check seconds, stage seconds) summed over the log's 'missed-mode check took' lines"""
    hits = re.findall(r"the missed-mode check took ([0-9.]+) s, [0-9.]+ % of the stage's ([0-9.]+) s", log)
    if not hits:
        return None, None
    return sum(float(h[0]) for h in hits), sum(float(h[1]) for h in hits)


def breakdown(c):
    """mbmodal's own times of a case: read, assemble, analysis, factor, iterate (solves, orth),
    check, post, stage total, program total [s]"""
    if c is None:
        return None
    b = {}
    # "(read in T s)", or "(read by rows on N ranks in T s: ...)" for a matrix deck read by rows
    m = re.search(r"\(read (?:by rows on \d+ ranks )?in ([0-9.]+) s[):]", c["log"])
    b["read"] = float(m.group(1)) if m else None
    m = re.search(r"done in ([0-9.]+) s", c["log"])
    b["program"] = float(m.group(1)) if m else None
    m = re.search(r"\(\d+ solves: ([0-9.]+) s\)", c["log"])
    b["solves"] = float(m.group(1)) if m else None
    m = re.search(r"krylov-schur: [0-9.]+ s: (\d+) applies [0-9.]+ s, orthogonalization ([0-9.]+) s", c["log"])
    b["nsolves"], b["orth"] = (int(m.group(1)), float(m.group(2))) if m else (None, None)
    b["check"] = check_share(c["log"])[0]
    b["shifts"] = len(re.findall(r"Krylov-Schur for \d+ eigenvalues", c["log"]))
    rep = os.path.join(c["dir"], "out", "bench.modal.yaml")
    if yaml is not None and os.path.exists(rep):
        try:
            r = yaml.load(open(rep), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            t = r.get("timings_s", {})
            f = r.get("factorization", {})
            b.update(assemble=t.get("assemble"), factor=t.get("factor"), iterate=t.get("iterate"),
                     post=t.get("post"), stage=t.get("total"), analysis=f.get("time_analysis_s"),
                     numeric=f.get("time_factor_s"), factor_mb=f.get("memory_mb"))
        except Exception:                     # a damaged report: no breakdown
            pass
    return b


def fit(points):
    """least-squares power law t = c n^p on (n, t) points: (p, c), or None with fewer than 2"""
    pts = [(math.log(n), math.log(t)) for n, t in points if n and t]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx == 0:
        return None
    p = sum((x - mx) * (y - my) for x, y in pts) / sxx
    return p, math.exp(my - p * mx)


def main():
    out, nev, dmodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    grids, nps, peers = sys.argv[4].split(), sys.argv[5].split(), sys.argv[6].split()
    rgrid, rnps, dgrid, dnps = sys.argv[7], sys.argv[8].split(), sys.argv[9], sys.argv[10].split()
    for f in ("header.txt", "meta.txt"):
        try:
            print(open(os.path.join(out, f)).read().rstrip())
        except OSError:
            pass
    verdict = []                              # (target, met?, text)
    pname = {"lu": "LU", "ldlt": "LDLt"}

    print(f"\nundamped, {nev} lowest modes, tolerance 1e-10: time = slowest rank's wall time [s], cpu = user + system"
          " summed over ranks [s],\nmem = peak resident memory summed over ranks [MB]; best peer = the faster of"
          " " + " and ".join(pname[p] for p in peers) + " in this run; ratios mbmodal / best peer;"
          "\neig = max relative eigenvalue difference to the best peer (peers = between the two peers);"
          " check = missed-mode check / stage")
    head = ["grid", "n", "np", "mbmodal s", "cpu s", "MB"]
    for p in peers:
        head += [f"{pname[p]} s", f"{pname[p]} cpu", f"{pname[p]} MB"]
    head += ["best", "time ratio", "cpu ratio", "mem ratio", "eig", "peers eig", "check"]
    rows = []
    ratios = {}
    for g in grids:
        for np_ in nps:
            a = case(out, f"g{g}-np{np_}-mbmodal")
            ps = {p: case(out, f"g{g}-np{np_}-{p}") for p in peers}
            if a is None and not any(ps.values()):
                continue
            row = [f"{g}x{g}", str(a["n"] if a else "-"), np_]
            row += [fmt(a and a["ok"] and a["wall"], ".2f"), fmt(a and a["ok"] and a["cpu"], ".2f"),
                    fmt(a and a["ok"] and a["mem"], ".0f")] if a else ["-"] * 3
            for p in peers:
                c = ps[p]
                ok = c is not None and c["ok"]
                row += [fmt(c["wall"], ".2f") if ok else ("FAIL" if c else "-"),
                        fmt(c["cpu"], ".2f") if ok else "-", fmt(c["mem"], ".0f") if ok else "-"]
            good = [p for p in peers if ps[p] is not None and ps[p]["ok"]]
            best = min(good, key=lambda p: ps[p]["wall"]) if good else None
            b = ps[best] if best else None
            ea = real_eigs(a)
            d, at = real_diff(ea, real_eigs(b), nev) if b else (None, None)
            dp = real_diff(real_eigs(ps[good[0]]), real_eigs(ps[good[1]]), nev)[0] if len(good) > 1 else None
            ck, st = check_share(a["log"]) if a else (None, None)
            aok = a is not None and a["ok"]
            tr = ratio(a["wall"], b["wall"]) if aok and b else None
            cr = ratio(a["cpu"], b["cpu"]) if aok and b else None
            mr = ratio(a["mem"], b["mem"]) if aok and b else None
            ratios[(g, np_)] = (tr, cr, mr, d, ck / st if ck is not None and st else None,
                                spread(a, [ps[p] for p in good]) if aok else None,
                                floor_and_solves(a["log"]) if aok else (None, None))
            row += [pname[best] if best else "-", fmt(tr, ".3f") + fmt_spread(ratios[(g, np_)][5]),
                    fmt(cr, ".3f"), fmt(mr, ".3f"),
                    (fmt(d, ".1e") + f" @{at}") if d is not None else "-", fmt(dp, ".1e"),
                    fmt(100 * ck / st if ck is not None and st else None, ".1f") + ("%" if st else "")]
            if aok and ea is not None and len(ea) < nev:
                row[-1] += f" (only {len(ea)} modes)"
            rows.append(row)
    if rows:
        w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
        for r in [head] + rows:
            print("  ".join(str(x).rjust(w[i]) for i, x in enumerate(r)))
    else:
        print("  (no undamped runs)")

    for g in grids:                           # targets of the undamped table (20 x 20 is for the fit only)
        if g == "20" and len(grids) > 1:
            continue
        for np_ in nps:
            if (g, np_) not in ratios:
                continue
            tr, cr, mr, d, sh, sp, (fl, sv) = ratios[(g, np_)]
            tag = f"{g}x{g}, {np_} rank{'s' if np_ != '1' else ''}"
            verdict.append((f"time <= {TIME_TARGET} x best peer ({tag})", tr is not None and tr <= TIME_TARGET,
                            f"time {fmt(tr, '.2f')}{fmt_spread(sp)}, cpu {fmt(cr, '.2f')}"))
            verdict.append((f"stage <= {FLOOR_TARGET} x its own floor ({tag})", fl is not None and fl <= FLOOR_TARGET,
                            fmt(fl, ".2f")))
            verdict.append((f"solves <= {SOLVES_TARGET} x converged ({tag})", sv is not None and sv <= SOLVES_TARGET,
                            fmt(sv, ".2f")))
            verdict.append((f"memory <= peer ({tag})", mr is not None and mr <= 1.0, f"{fmt(mr, '.2f')}"))
            verdict.append((f"eigenvalues within 1e-8 ({tag})", d is not None and d <= 1e-8, f"{fmt(d, '.1e')}"))
            verdict.append((f"missed-mode check <= 15 % of the stage ({tag})", sh is not None and sh <= 0.15,
                            f"{fmt(100 * sh if sh is not None else None, '.1f')} %"))

    # mbmodal's own breakdown, per undamped case
    print("\nmbmodal's own times [s] (its log and report): read = reading the Matrix Market files;"
          " assemble = the pencil;\nanalysis + numeric = MUMPS; iterate = Krylov-Schur (solves = the"
          " operator applies, orth = Gram-Schmidt); check = missed-mode check;\npost = after the iteration"
          " (Ritz vectors, residuals, check, report); program = mbmodal's 'done in'")
    bh = ["grid", "np", "read", "assemble", "analysis", "numeric", "iterate", "solves", "orth", "check", "post",
          "stage", "program", "wall", "factor MB"]
    brows = []
    for g in grids:
        for np_ in nps:
            a = case(out, f"g{g}-np{np_}-mbmodal")
            if a is None or not a["ok"]:
                continue
            b = breakdown(a)
            brows.append([f"{g}x{g}", np_] + [fmt(b.get(k), ".2f") for k in
                         ("read", "assemble", "analysis", "numeric", "iterate")]
                         + [fmt(b.get("solves"), ".2f") + (f" ({b['nsolves']})" if b.get("nsolves") else "")]
                         + [fmt(b.get(k), ".2f") for k in ("orth", "check", "post", "stage", "program")]
                         + [fmt(a["wall"], ".2f"), fmt(b.get("factor_mb"), "d")])
    if brows:
        w = [max(len(str(r[i])) for r in brows + [bh]) for i in range(len(bh))]
        for r in [bh] + brows:
            print("  ".join(str(x).rjust(w[i]) for i, x in enumerate(r)))

    # damped stage
    if dgrid:
        print(f"\ndamped, {dmodes} lowest modes ({2 * dmodes} eigenvalues with conjugates) of the {dgrid}x{dgrid} grid,"
              " against the peer built on complex PETSc/SLEPc (PC LU);\neig = max over mbmodal's modes of"
              " |lambda - nearest peer lambda| / |lambda|")
        dh = ["np", "mbmodal s", "cpu s", "MB", "peer s", "peer cpu", "peer MB", "time ratio", "cpu ratio",
              "mem ratio", "eig", "mbmodal shifts"]
        drows, dnotes = [], []
        for np_ in dnps:
            a, c = case(out, f"d{dgrid}-np{np_}-mbmodal"), case(out, f"d{dgrid}-np{np_}-complex")
            if a is None and c is None:
                continue
            # a run that ran to its end but exited non-zero (mbmodal: status 4, residuals above
            # 10 x the tolerance, report written) is timed and compared, and flagged
            aok, cok = a is not None and a["ran"], c is not None and c["ran"]
            ea, ec = complex_eigs(a), complex_eigs(c)
            d = complex_diff(ea, ec, dmodes)
            tr = ratio(a["wall"], c["wall"]) if aok and cok else None
            dsp = spread(a, [c]) if aok and cok else None
            dfl, dsv = floor_and_solves(a["log"]) if aok else (None, None)
            mr = ratio(a["mem"], c["mem"]) if aok and cok else None
            cr = ratio(a["cpu"], c["cpu"]) if aok and cok else None
            shifts = len(re.findall(r"Krylov-Schur for \d+ eigenvalues", a["log"])) if a else 0
            flag = lambda x: f" (exit {x['rc']})" if x is not None and x["ran"] and not x["ok"] else ""
            drows.append([np_, (fmt(a["wall"], ".2f") if aok else "FAIL") + flag(a), fmt(a["cpu"], ".2f") if aok else "-",
                          fmt(a["mem"], ".0f") if aok else "-", (fmt(c["wall"], ".2f") if cok else "FAIL") + flag(c),
                          fmt(c["cpu"], ".2f") if cok else "-", fmt(c["mem"], ".0f") if cok else "-",
                          fmt(tr, ".3f") + fmt_spread(dsp), fmt(cr, ".3f"), fmt(mr, ".3f"), fmt(d, ".1e"), str(shifts)])
            if a is not None and a["ran"] and not a["ok"]:
                m = re.search(r"^mbmodal: error: (.*)$", a["log"], re.M)
                dnotes.append(f"  np {np_}: mbmodal exit {a['rc']}: " + (m.group(1) if m else "see " + os.path.join(a["dir"], "log")))
                verdict.append((f"damped stage succeeds ({np_} rank{'s' if np_ != '1' else ''})", False,
                                f"mbmodal exit {a['rc']}"))
            dtag = f"{np_} rank{'s' if np_ != '1' else ''}"
            verdict.append((f"damped time <= {TIME_TARGET} x complex peer ({dtag})",
                            tr is not None and tr <= TIME_TARGET,
                            f"time {fmt(tr, '.2f')}{fmt_spread(dsp)}, cpu {fmt(cr, '.2f')}"))
            verdict.append((f"damped stage <= {FLOOR_TARGET} x its own floor ({dtag})",
                            dfl is not None and dfl <= FLOOR_TARGET, fmt(dfl, ".2f")))
            verdict.append((f"damped solves <= {SOLVES_TARGET} x converged ({dtag})",
                            dsv is not None and dsv <= SOLVES_TARGET, fmt(dsv, ".2f")))
            verdict.append((f"damped memory <= peer ({np_} rank{'s' if np_ != '1' else ''})",
                            mr is not None and mr <= 1.0, fmt(mr, ".2f")))
            verdict.append((f"damped eigenvalues within 1e-8 ({np_} rank{'s' if np_ != '1' else ''})",
                            d is not None and d <= 1e-8, fmt(d, ".1e")))
        if drows:
            w = [max(len(str(r[i])) for r in drows + [dh]) for i in range(len(dh))]
            for r in [dh] + drows:
                print("  ".join(str(x).rjust(w[i]) for i, x in enumerate(r)))
        for t in dnotes:
            print(t)

    # growth: time against DOFs on 1 rank
    print("\ngrowth, 1 rank: least-squares t = c n^p over the grids (n = DOFs)")
    for who, tags in (("mbmodal", ["mbmodal"]), ("best peer", peers)):
        for what in ("wall", "cpu"):
            pts = []
            for g in grids:
                cs = [case(out, f"g{g}-np1-{t}") for t in tags]
                cs = [c for c in cs if c is not None and c["ok"]]
                if cs:
                    c = min(cs, key=lambda c: c["wall"])
                    pts.append((c["n"], c[what]))
            f = fit(pts)
            if f:
                print(f"  {who:9s} {what:4s}: p = {f[0]:.3f}, c = {f[1]:.3e} s  (points: "
                      + ", ".join(f"n={n} {t:.2f} s" for n, t in pts) + ")")
                if who == "mbmodal":
                    lo, hi = min(n for n, _ in pts), max(n for n, _ in pts)
                    verdict.append((f"growth exponent <= 1.15 (mbmodal {what}, n {lo} to {hi})", f[0] <= 1.15,
                                    f"p = {f[0]:.3f}"))
            else:
                print(f"  {who:9s} {what:4s}: fewer than 2 grids")

    # ranks: eigenvalues on RANK_NPS ranks against the first
    if rgrid:
        print(f"\nranks: mbmodal on the {rgrid}x{rgrid} grid, max relative eigenvalue difference to {rnps[0]} rank(s)"
              " (runs with more ranks than cores are oversubscribed: not timings)")
        base = real_eigs(case(out, f"g{rgrid}-np{rnps[0]}-mbmodal"))
        worst = None
        for np_ in rnps[1:]:
            c = case(out, f"g{rgrid}-np{np_}-mbmodal")
            d, at = real_diff(base, real_eigs(c), nev)
            print(f"  {np_} ranks: " + (f"{d:.2e} at mode {at}, wall {c['wall']:.2f} s" if d is not None else "not run or failed"))
            if d is not None:
                worst = d if worst is None else max(worst, d)
            elif c is not None:
                worst = float("inf")
        if len(rnps) > 1:
            verdict.append((f"ranks {', '.join(rnps)} agree (max relative difference, 1e-8 taken as round-off here)",
                            worst is not None and worst <= 1e-8, fmt(worst, ".1e")))

    # repeats: the spread of each case's wall times (targets.sh's REPEAT > 1)
    spreads = []
    names = [f"g{g}-np{n}-{k}" for g in grids for n in nps for k in ["mbmodal"] + peers]
    if dgrid:
        names += [f"d{dgrid}-np{n}-{k}" for n in dnps for k in ("mbmodal", "complex")]
    for name in names:
        c = case(out, name)
        if c is not None and len(c.get("walls", [])) > 1:
            spreads.append(f"  {name:22s} " + " ".join(f"{t:7.2f}" for t in c["walls"])
                          + f"   median {c['wall']:.2f}, max/min {max(c['walls']) / min(c['walls']):.2f}")
    if spreads:
        print("\nrepeats: each case ran more than once, mbmodal and its peers alternating; the tables"
              " count the run of median wall time;\nwall times [s], fastest first:")
        print("\n".join(spreads))

    print("\ntargets:")
    for t, ok, text in verdict:
        print(f"  {'met    ' if ok else 'NOT met'}  {t}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
