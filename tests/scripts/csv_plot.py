#!/usr/bin/python3
"""csv_plot.py: checks of csv_plot.sh that need Python (yaml, csv, struct).

usage: csv_plot.py CHECK ARGS...   or   csv_plot.py batch FILE (a check per line)

  csv REPORT.yaml REPORT.csv REF.yaml NMODES
      the CSV's columns equal the YAML report's values (same doubles), and its
      frequencies equal the reference's (an outside reference: scipy on an independent
      assembly, tests/models/mbref.py) within the reference's rtol
  same CSV_A CSV_B RTOL
      two CSV tables of one deck (1 and 2 ranks): same columns, kinds and count, numbers
      within RTOL relative (rounding depends on the rank count); residuals not compared
  png FILE...
      PNG files: the 8-byte signature, an IHDR chunk with a width and height > 0
"""
import csv
import math
import struct
import sys

import yaml

DIRS = ["dx", "dy", "dz", "rx", "ry", "rz"]


def load(path):
    with open(path) as f:
        return yaml.load(f, Loader=yaml.CSafeLoader)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(cell):
    return float(cell) if cell != "" else None


def check_csv(report, table, ref, nmodes):
    rep, tab, rf = load(report), rows(table), load(ref)
    bad = []
    modes = rep["modes"]
    if len(tab) != len(modes) or len(modes) != nmodes:
        bad.append("%d CSV rows, %d modes in the report, %d asked" % (len(tab), len(modes), nmodes))
    damped = rep["stage"] == "complex"
    for md, row in zip(modes, tab):
        want = {"mode": float(md["mode"]), "frequency_hz": md["frequency_hz"],
                "residual": md["residual"]}
        if damped:
            want["eigenvalue_re"], want["eigenvalue_im"] = md["eigenvalue"]
            want["damped_frequency_hz"] = md["damped_frequency_hz"]
            want["damping_ratio"] = md["damping_ratio"]
            want["multiplicity"] = float(md.get("multiplicity", 1))
        else:
            want["eigenvalue"] = md["eigenvalue"]
            pf = md.get("participation")
            if pf:
                want["dominant_share"] = pf["dominant"]["fraction"]
                for k, d in enumerate(DIRS):
                    want["m_eff_" + d] = pf["effective_mass"][k]
                    want["cumulative_" + d] = pf["cumulative"][k]
                if row["dominant_direction"] != pf["dominant"]["direction"]:
                    bad.append("mode %s: dominant %s, report %s" % (
                        row["mode"], row["dominant_direction"], pf["dominant"]["direction"]))
            elif "m_eff_dx" in row and row["m_eff_dx"] != "":
                bad.append("mode %s: effective masses without participation" % row["mode"])
        if row["kind"] != md["kind"]:
            bad.append("mode %s: kind %s, report %s" % (row["mode"], row["kind"], md["kind"]))
        for key, v in want.items():
            if num(row[key]) != v:  # the same double: both are written to round-trip
                bad.append("mode %s: %s = %s, report %r" % (row["mode"], key, row[key], v))
    if not damped and "participation" in rep and "m_eff_dx" not in tab[0]:
        bad.append("no effective mass columns in a model's undamped table")
    rtol = float(rf["rtol"])
    for k, (row, rm) in enumerate(zip(tab, rf["modes"][:nmodes])):
        if rm.get("kind") == "rigid-body":  # frequency 0 against round-off: the label
            if row["kind"] != "rigid-body":
                bad.append("mode %d: %s, reference rigid-body" % (k + 1, row["kind"]))
            continue
        f, fr = float(row["frequency_hz"]), rm["frequency_hz"]
        if abs(f - fr) > rtol * fr:
            bad.append("mode %d: %.17g Hz, reference %.17g Hz" % (k + 1, f, fr))
        if damped and abs(float(row["damping_ratio"]) - rm["damping_ratio"]) > rtol:
            bad.append("mode %d: damping %s, reference %r" % (k + 1, row["damping_ratio"],
                                                             rm["damping_ratio"]))
    worst = max(abs(float(r["frequency_hz"]) - m["frequency_hz"]) / m["frequency_hz"]
                for r, m in zip(tab, rf["modes"]) if m["frequency_hz"] > 0)
    print("csv %s: %d rows x %d columns equal the report; frequencies vs reference: worst "
          "rel diff %.2e (rtol %g)" % (table, len(tab), len(tab[0]) if tab else 0, worst, rtol))
    return bad


def check_same(a, b, rtol):
    ta, tb = rows(a), rows(b)
    if len(ta) != len(tb) or not ta or list(ta[0]) != list(tb[0]):
        return ["%s and %s differ in shape" % (a, b)]
    bad = []
    worst = 0.0
    for key in ta[0]:
        if key == "residual":  # round-off: differs with the rank count
            continue
        xa, xb = [r[key] for r in ta], [r[key] for r in tb]
        try:
            fa, fb = [float(x) for x in xa], [float(x) for x in xb]
        except ValueError:  # labels: kind, dominant direction
            bad += ["%s: %s vs %s" % (key, x, y) for x, y in zip(xa, xb) if x != y]
            continue
        # as mbmodal compare does: eigenvalues relative to |lambda| (Re lambda of a lightly
        # damped mode is small against it), frequencies to themselves, damping ratios and
        # shares absolute; effective masses relative to the largest of their kind
        # (translations, rotations) in both files: a mass of 1e-45 kg is round-off
        for i, (x, y) in enumerate(zip(fa, fb)):
            if key.startswith("m_eff"):
                scale = max(abs(float(r[k])) for r in ta + tb for k in r
                            if k.startswith(key[:7]) and r[k] != "")
            elif key.startswith(("cumulative", "dominant_share", "damping_ratio")):
                scale = 1.0
            elif key.startswith("eigenvalue_"):
                scale = abs(complex(float(ta[i]["eigenvalue_re"]), float(ta[i]["eigenvalue_im"])))
            else:
                scale = max(abs(x), abs(y))
            d = abs(x - y) / scale if scale > 0 else 0.0
            worst = max(worst, d)
            if d > rtol:
                bad.append("mode %d: %s %r vs %r" % (i + 1, key, x, y))
    print("same %s %s: %d rows, worst rel diff %.2e (rtol %g)" % (a, b, len(ta), worst, rtol))
    return bad


def check_png(path):
    try:
        with open(path, "rb") as f:
            head = f.read(33)
    except OSError as e:
        return ["%s: %s" % (path, e.strerror)]
    if len(head) < 33 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return ["%s: not a PNG" % path]
    w, h = struct.unpack(">II", head[16:24])
    print("png %s: %d x %d" % (path, w, h))
    return [] if w > 0 and h > 0 else ["%s: empty image %d x %d" % (path, w, h)]


def run(args):
    """One check: its failures (a file that is missing or unreadable is one)."""
    what = args[0]
    try:
        if what == "csv":
            return check_csv(args[1], args[2], args[3], int(args[4]))
        if what == "same":
            return check_same(args[1], args[2], float(args[3]))
        if what == "png":
            return [b for path in args[1:] for b in check_png(path)]
    except (OSError, KeyError, ValueError, TypeError, yaml.YAMLError) as e:
        return ["%s: %s: %s" % (" ".join(args), type(e).__name__, e)]
    return ["unknown check " + what]


def main():
    """The check of the command line, or with `batch FILE` every line of FILE (one
    Python start for all)."""
    if sys.argv[1] == "batch":
        with open(sys.argv[2]) as f:
            checks = [line.split() for line in f if line.strip()]
    else:
        checks = [sys.argv[1:]]
    bad = [b for args in checks for b in run(args)]
    for b in bad:
        print("FAIL " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
