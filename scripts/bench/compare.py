#!/usr/bin/python3
"""compare.py: the summary table of run.sh (mbmodal vs the SLEPc peer): time, memory, eigenvalues.

usage: compare.py WORK NEV NP
Reads, in WORK (written by run.sh):
  mbmodal.wall, peer.wall          wall seconds of the whole `mpirun` (date before and after)
  mbmodal.time.R, peer.time.R      GNU `time -v` output of rank R (one file per rank)
  mbmodal-out/bench.modal.yaml     mbmodal's report: `modes:` list, entries with `eigenvalue:`
  peer.eig, peer.log               the peer's eigenvalues (one per line) and its stdout
Prints the table and writes mbmodal's eigenvalues to WORK/mbmodal.eig (one per line, ascending);
exit status 1 if a side is missing, failed, or gave fewer than NEV eigenvalues.
"""
import glob
import os
import re
import sys


def read_float(path):
    try:
        with open(path) as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def elapsed(text):
    """GNU time's 'Elapsed (wall clock) time (h:mm:ss or m:ss): 1:02.34' in seconds."""
    m = re.search(r"Elapsed \(wall clock\) time.*?: ([0-9:.]+)", text)
    if not m:
        return None
    s = 0.0
    for part in m.group(1).split(":"):
        s = 60 * s + float(part)
    return s


def ranks(work, tag):
    """(sum of max RSS over ranks [KB], max per-rank elapsed [s], number of ranks, all exit 0,
    sum of user + system CPU time over ranks [s])."""
    rss, el, n, ok, cpu = 0, 0.0, 0, True, 0.0
    for p in sorted(glob.glob(os.path.join(work, tag + ".time.*"))):
        with open(p) as f:
            t = f.read()
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
        if not m:
            ok = False
            continue
        rss += int(m.group(1))
        el = max(el, elapsed(t) or 0.0)
        for k in ("User", "System"):
            c = re.search(k + r" time \(seconds\): ([0-9.]+)", t)
            cpu += float(c.group(1)) if c else 0.0
        st = re.search(r"Exit status: (\d+)", t)
        ok = ok and (st is None or st.group(1) == "0")
        n += 1
    return rss, el, n, ok and n > 0, cpu


def find_modes(obj, path=()):
    """the first list under a key 'modes' whose items carry 'eigenvalue'; undamped before damped."""
    found = []

    def walk(o, p):
        if isinstance(o, dict):
            for k, v in o.items():
                if k == "modes" and isinstance(v, list) and v and all(isinstance(e, dict) and "eigenvalue" in e for e in v):
                    found.append((p + (str(k),), v))
                else:
                    walk(v, p + (str(k),))
        elif isinstance(o, list):
            for e in o:
                walk(e, p)

    walk(obj, path)
    found.sort(key=lambda f: any("damped" == s or s.startswith("damped") for s in f[0]))
    return found[0][1] if found else None


def mbmodal_eigs(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    vals = None
    try:
        import yaml
        modes = find_modes(yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
        if modes is not None:
            vals = [float(e["eigenvalue"]) for e in modes]
    except Exception:                     # malformed YAML, or a non-numeric entry: fall back to text
        vals = None
    if vals is None:
        vals = [float(x) for x in re.findall(r"^\s*-?\s*eigenvalue:\s*([-+0-9.eE]+)", text, re.M)]
    return sorted(vals) if vals else None


def peer_eigs(path):
    try:
        with open(path) as f:
            return sorted(float(x) for x in f.read().split())
    except (OSError, ValueError):
        return None


def fmt(x, spec):
    """x formatted with spec ("14.2f"), or a dash of the same width."""
    return format(x, spec) if x is not None else format("-", ">" + spec.split(".")[0])


def main():
    work, nev, np_ = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    ok = True
    rows = {}
    for tag in ("mbmodal", "peer", "base"):
        rss, el, n, good, cpu = ranks(work, tag)
        rows[tag] = dict(wall=read_float(os.path.join(work, tag + ".wall")), rss=rss / 1024.0 if n else None,
                         rank_wall=el if n else None, n=n, good=good, cpu=cpu if n else None)
        ok = ok and (good or tag == "base")
    solve = None
    try:
        with open(os.path.join(work, "peer.log")) as f:
            m = re.search(r"^peer_solve_seconds ([0-9.eE+-]+)", f.read(), re.M)
            solve = float(m.group(1)) if m else None
    except OSError:
        pass
    a, b = rows["mbmodal"], rows["peer"]
    ratio = lambda x, y: x / y if x is not None and y else None
    print(f"{'':28s}{'mbmodal':>14s}{'peer (SLEPc)':>14s}{'mbmodal/peer':>14s}")
    print(f"{'wall time, mpirun [s]':28s}{fmt(a['wall'], '14.2f')}{fmt(b['wall'], '14.2f')}"
          f"{fmt(ratio(a['wall'], b['wall']), '14.3f')}")
    print(f"{'wall time, slowest rank [s]':28s}{fmt(a['rank_wall'], '14.2f')}{fmt(b['rank_wall'], '14.2f')}"
          f"{fmt(ratio(a['rank_wall'], b['rank_wall']), '14.3f')}")
    print(f"{'peak memory, sum ranks [MB]':28s}{fmt(a['rss'], '14.1f')}{fmt(b['rss'], '14.1f')}"
          f"{fmt(ratio(a['rss'], b['rss']), '14.3f')}")
    print(f"{'CPU time, sum ranks [s]':28s}{fmt(a['cpu'], '14.2f')}{fmt(b['cpu'], '14.2f')}"
          f"{fmt(ratio(a['cpu'], b['cpu']), '14.3f')}")
    print(f"{'peer EPSSetUp+EPSSolve [s]':28s}{'':14s}{fmt(solve, '14.2f')}")
    c = rows["base"]
    if c["n"]:                               # run.sh MBMODAL_BASE: the build before a change
        print(f"{'':28s}{'before':>14s}{'peer (SLEPc)':>14s}{'before/peer':>14s}")
        print(f"{'wall time, mpirun [s]':28s}{fmt(c['wall'], '14.2f')}{fmt(b['wall'], '14.2f')}"
              f"{fmt(ratio(c['wall'], b['wall']), '14.3f')}")
        print(f"{'wall time, slowest rank [s]':28s}{fmt(c['rank_wall'], '14.2f')}{fmt(b['rank_wall'], '14.2f')}"
              f"{fmt(ratio(c['rank_wall'], b['rank_wall']), '14.3f')}")
        print(f"{'peak memory, sum ranks [MB]':28s}{fmt(c['rss'], '14.1f')}{fmt(b['rss'], '14.1f')}"
              f"{fmt(ratio(c['rss'], b['rss']), '14.3f')}")
        print(f"{'CPU time, sum ranks [s]':28s}{fmt(c['cpu'], '14.2f')}{fmt(b['cpu'], '14.2f')}"
              f"{fmt(ratio(c['cpu'], b['cpu']), '14.3f')}")
        for tag in ("base", "mbmodal"):
            try:
                for line in open(os.path.join(work, tag + ".log"), errors="replace"):
                    if line.startswith("krylov-schur:") or "Ritz pairs converged" in line \
                       or "for the stage" in line or "factored in" in line:
                        print(f"  {'before' if tag == 'base' else 'mbmodal'}: " + line.strip())
            except OSError:
                pass
    for tag in ("mbmodal", "peer") + (("base",) if rows["base"]["n"] else ()):
        if not rows[tag]["good"]:
            print(f"{tag}: FAILED or not run (see {os.path.join(work, tag + '.log')})")
    ea = mbmodal_eigs(os.path.join(work, "mbmodal-out", "bench.modal.yaml"))
    if ea:                                   # for check_eigs.py (run.sh CHECK=1)
        with open(os.path.join(work, "mbmodal.eig"), "w") as f:
            f.writelines(f"{x:.17g}\n" for x in ea)
    eb = peer_eigs(os.path.join(work, "peer.eig"))
    if not ea or not eb:
        print("eigenvalues: not compared (" + ("no mbmodal report" if not ea else "no peer output") + ")")
        return 1
    ec = mbmodal_eigs(os.path.join(work, "base-out", "bench.modal.yaml"))
    if ec:                                   # before and after a change: the same eigenvalues?
        kc = min(len(ea), len(ec), nev)
        fl = 1e-8 * max(abs(x) for x in ea[:kc] + ec[:kc])
        dc = [abs(x - y) / max(abs(x), abs(y), fl) for x, y in zip(ea[:kc], ec[:kc])]
        print(f"eigenvalues: before and mbmodal, {kc} compared, max relative difference {max(dc):.3e}")
    k = min(len(ea), len(eb), nev)
    for tag, e in (("mbmodal", ea), ("peer", eb)):
        if len(e) < nev:
            print(f"warning: {tag} gave {len(e)} eigenvalues, {nev} asked")
            ok = False
    ea, eb = ea[:k], eb[:k]
    floor = 1e-8 * max(max(abs(x) for x in ea), max(abs(x) for x in eb))
    d = [abs(x - y) / max(abs(x), abs(y), floor) for x, y in zip(ea, eb)]
    i = max(range(k), key=d.__getitem__)
    print(f"eigenvalues: {k} compared (ascending), max relative difference {d[i]:.3e} at mode {i + 1} "
          f"(mbmodal {ea[i]:.12g}, peer {eb[i]:.12g})")
    print(f"eigenvalues: median relative difference {sorted(d)[k // 2]:.3e}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
