#!/usr/bin/python3
"""Decks for tests/scripts/read_by_rows.sh (issue 10: a matrix deck read by rows).

usage: read_by_rows.py OUTDIR DECK.yaml...
Writes into OUTDIR:
  - for every matrix deck given, NAME.yaml: the same K, M and Cq (absolute paths) with its
    modal section only (no R, no complex section), and, when it has a damped stage,
    NAME.damped.yaml: K, M, R and Cq with the damped stage only, the decks that more than
    one rank reads by rows;
  - long_chain.yaml and its files: a fixed-fixed chain of N = 40000 masses held at both
    ends by two constraint rows (as tests/decks/chain_constrained.yaml), whose K.mtx is
    above the 1 MiB from which every rank parses a share of a file, with its closed-form
    reference long_chain.ref.modal.yaml:
        omega_j = 2 sqrt(k/m) sin(j pi / (2 (N + 1))),  j = 1..8
    (the interior masses of a chain whose end masses do not move);
  - bad_value.yaml: chain_fixed's deck with a K file whose line 9 holds a value that is not
    a number.
Pure Python, no numpy.
"""
import math
import os
import sys


def copy_sections(src, sections, matrices, required=()):
    """A matrix deck's lines of the given top-level sections, the matrices named in
    `matrices` with absolute paths (the others left out); None when a kept section says
    `enabled: false` or a `required` one is missing."""
    base = os.path.dirname(os.path.abspath(src))
    keep, section, lines, seen = True, None, [], set()
    with open(src) as f:
        for line in f:
            if line.strip() == "" or line.lstrip().startswith("#"):
                continue
            if not line.startswith(" "):
                section = line.split(":")[0].strip()
                keep = section in sections
                if keep:
                    seen.add(section)
                    lines.append(line)
                continue
            if not keep:
                continue
            key = line.strip().split(":")[0]
            if key == "enabled" and "false" in line:
                return None
            if section == "matrices":
                if key not in matrices:
                    continue
                path = line.split(":", 1)[1].split("#")[0].strip().strip('"')
                line = "  %s: %s\n" % (key, os.path.join(base, path))
            lines.append(line)
    return lines if set(required) <= seen else None


def write_deck(src, dst, what, lines):
    with open(dst, "w") as f:
        f.write("# %s with its %s only (written by tests/scripts/read_by_rows.py)\n"
                % (os.path.basename(src), what))
        f.writelines(lines)


def modal_only(src, dst):
    """Copies a matrix deck's title, K, M, Cq (absolute paths) and modal section."""
    lines = copy_sections(src, ("title", "matrices", "modal", "output"), ("K", "M", "Cq"))
    if lines is not None:
        write_deck(src, dst, "modal stage", lines)


def damped_only(src, dst):
    """Copies a matrix deck's title, K, M, R, Cq (absolute paths), complex and output
    sections, with the modal stage off; nothing when the deck has no complex section or
    turns it off."""
    lines = copy_sections(src, ("title", "matrices", "complex", "output"), ("K", "M", "R", "Cq"),
                          required=("complex",))
    if lines is not None:
        write_deck(src, dst, "damped stage", lines + ["modal:\n  enabled: false\n"])


def mtx(path, n_rows, n_cols, entries):
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n")
        f.write("%d %d %d\n" % (n_rows, n_cols, len(entries)))
        for (i, j, v) in entries:
            f.write("%d %d %.17g\n" % (i + 1, j + 1, v))


def long_chain(out):
    N, k, m = 40000, 1000.0 / 3.0, 2.0 / 3.0
    n2 = N + 2
    K = []
    for i in range(n2):
        d = (k if i > 0 else 0.0) + (k if i < n2 - 1 else 0.0)
        K.append((i, i, d))
        if i + 1 < n2:
            K.append((i, i + 1, -k))
            K.append((i + 1, i, -k))
    mtx(os.path.join(out, "long_chain.K.mtx"), n2, n2, K)
    mtx(os.path.join(out, "long_chain.M.mtx"), n2, n2, [(i, i, m) for i in range(n2)])
    mtx(os.path.join(out, "long_chain.Cq.mtx"), 2, n2, [(0, 0, 1.0), (1, n2 - 1, 1.0)])
    with open(os.path.join(out, "long_chain.yaml"), "w") as f:
        f.write('title: "fixed-fixed chain of 40000 masses held by two constraint rows"\n')
        f.write("matrices:\n")
        for key in ("K", "M", "Cq"):
            f.write("  %s: %s\n" % (key, os.path.join(out, "long_chain.%s.mtx" % key)))
        f.write("modal:\n  modes: 8\n")
    with open(os.path.join(out, "long_chain.ref.yaml"), "w") as f:
        f.write("# closed form: f_j = (1 / 2 pi) 2 sqrt(k/m) sin(j pi / (2 (N + 1))), N = 40000\n")
        f.write("format: mbmodal-report\nformat_version: 1\nstage: modal\nrtol: 1e-6\nmodes:\n")
        for j in range(1, 9):
            w = 2.0 * math.sqrt(k / m) * math.sin(j * math.pi / (2.0 * (N + 1)))
            f.write("  - frequency_hz: %.17g\n    kind: oscillatory\n" % (w / (2.0 * math.pi)))


def bad_value(out, decks):
    src = [d for d in decks if os.path.basename(d) == "chain_fixed.yaml"][0]
    base = os.path.dirname(os.path.abspath(src))
    with open(os.path.join(base, "chain_fixed.K.mtx")) as f:
        lines = f.readlines()
    lines[8] = lines[8].rsplit(" ", 1)[0] + " 1.5x\n"
    with open(os.path.join(out, "bad_value.K.mtx"), "w") as f:
        f.writelines(lines)
    with open(os.path.join(out, "bad_value.yaml"), "w") as f:
        f.write("matrices:\n  K: %s\n  M: %s\nmodal:\n  modes: 4\n"
                % (os.path.join(out, "bad_value.K.mtx"), os.path.join(base, "chain_fixed.M.mtx")))


def main():
    out = os.path.abspath(sys.argv[1])
    os.makedirs(out, exist_ok=True)
    decks = []
    for d in sys.argv[2:]:
        if ".ref." in d:
            continue
        with open(d) as f:
            if not any(line.startswith("matrices:") for line in f):
                continue
        decks.append(d)
        modal_only(d, os.path.join(out, os.path.basename(d)))
        damped_only(d, os.path.join(out, os.path.basename(d)[:-5] + ".damped.yaml"))
    long_chain(out)
    bad_value(out, decks)


main()
