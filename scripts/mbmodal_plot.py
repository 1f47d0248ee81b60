#!/usr/bin/python3
"""mbmodal_plot.py: `mbmodal plot`: draws an mbmodal report as a PNG with matplotlib.

usage: mbmodal plot [-o PNG] [--mode N] REPORT.yaml
       python3 scripts/mbmodal_plot.py [-o PNG] [--mode N] REPORT.yaml

  a modal or complex report       the table of modes: frequency per mode (and, complex,
                                  the damping ratio), coloured by kind, or by the dominant
                                  direction of the effective mass when the report has
                                  participation (a model's undamped stage)
  --mode N, a model report        mode N as a line drawing: beams as lines through their
                                  nodes, bodies as dots, springs and bushings as thin lines,
                                  the undeformed model grey, the mode (translations, scaled
                                  to a tenth of the model; complex: the real part, the shape
                                  at phase 0) in colour
  an FRF report (NAME.frf.yaml)   scripts/plot_frf.py's draw(report, png): magnitude and
                                  phase of each pair against frequency
  a sweep report (NAME.sweep.yaml) scripts/plot_sweep.py's draw(report, png): the tracked
                                  frequencies (and damping ratios) against the value; a
                                  spin sweep's Campbell diagram with its critical speeds

-o PNG: the picture (default: REPORT without .yaml, plus .png, or .modeN.png with --mode).
Exit status: 0 written; 1 usage, or python3 modules missing (matplotlib, yaml, plot_frf);
2 the report cannot be read or has nothing to draw (a static report, no such mode, no
shapes); 5 the PNG cannot be written.
"""
import math
import os
import sys

NEEDS = ("needs python3 with matplotlib and yaml (Debian: apt-get install python3-matplotlib "
         "python3-yaml; scripts/install-deps.sh does it)")
DPI = 90
KIND_COLOURS = {"rigid-body": "tab:grey", "oscillatory": "tab:blue",
                "overdamped": "tab:green", "unstable": "tab:red"}
DIR_COLOURS = {"dx": "tab:blue", "dy": "tab:orange", "dz": "tab:green",
               "rx": "tab:purple", "ry": "tab:brown", "rz": "tab:pink"}
OLD_DIRS = {"tx": "dx", "ty": "dy", "tz": "dz"}   # the names in reports written before dx dy dz


def fail(status, msg):
    """The message on stderr, as mbmodal writes its errors, and the exit status."""
    sys.stderr.write("mbmodal: error: plot: %s\n" % msg)
    sys.exit(status)


def parse_args(argv):
    """(report, png, mode): the command line; usage errors exit 1."""
    report, png, mode = None, None, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            sys.stdout.write(__doc__.split("\n", 2)[2].lstrip("\n"))
            sys.exit(0)
        if a in ("-o", "--output", "--mode"):
            if i + 1 >= len(argv):
                fail(1, "%s needs a value (mbmodal plot --help)" % a)
            v = argv[i + 1]
            i += 2
            if a == "--mode":
                if not v.isdigit() or int(v) < 1:
                    fail(1, "--mode needs a mode number >= 1, not '%s'" % v)
                mode = int(v)
            else:
                png = v
            continue
        if a.startswith("-") and a != "-":
            fail(1, "unknown option '%s' (mbmodal plot --help)" % a)
        if report is not None:
            fail(1, "one report at a time: '%s' and '%s'" % (report, a))
        report = a
        i += 1
    if report is None:
        fail(1, "no report given (usage: mbmodal plot [-o PNG] [--mode N] REPORT.yaml)")
    if png is None:
        base = report[:-5] if report.endswith(".yaml") else report
        png = base + (".mode%d.png" % mode if mode else ".png")
    return report, png, mode


def load(path):
    """The report as a dict; exit 2 when it cannot be read or is not an mbmodal report."""
    try:
        import yaml
    except ImportError:
        fail(1, NEEDS)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        with open(path) as f:
            doc = yaml.load(f, Loader=loader)
    except OSError as e:
        fail(2, "cannot read %s: %s" % (path, e.strerror))
    except yaml.YAMLError as e:
        fail(2, "%s is not valid YAML: %s" % (path, str(e).splitlines()[0]))
    if is_frf(doc):
        return doc
    if not isinstance(doc, dict) or doc.get("format") != "mbmodal-report":
        fail(2, "%s is not an mbmodal report (no 'format: mbmodal-report')" % path)
    return doc


def is_frf(doc):
    """A NAME.frf.yaml as the frf stage writes it (no format key: its grid `frequency_hz`
    and its `pairs`), or a report with a top-level frf:."""
    return isinstance(doc, dict) and ("frf" in doc or ("frequency_hz" in doc and "pairs" in doc))


def title_of(rep, path):
    """The report's title, else its file name."""
    return str(rep.get("title") or os.path.basename(path))


def short(text):
    """text cut to 70 characters (a title line)."""
    return text if len(text) <= 70 else text[:67] + "..."


def number(x):
    """x as a float, NaN for null (a value that was not finite)."""
    return float(x) if x is not None else float("nan")


def draw_table(plt, rep, path):
    """The mode table chart: bars of frequency per mode (log scale when the frequencies
    span more than 2 decades), coloured by kind or by dominant direction; complex stage:
    a second panel of damping ratios. Returns the figure."""
    modes = rep.get("modes") or []
    if not modes:
        fail(2, "%s has no modes to draw" % path)
    damped = rep.get("stage") == "complex"
    nums = [int(m.get("mode", i + 1)) for i, m in enumerate(modes)]
    freq = [number(m.get("frequency_hz")) for m in modes]
    by_dir = any(isinstance(m.get("participation"), dict)
                 and "dominant" in m["participation"] for m in modes)
    if by_dir:
        keys = [OLD_DIRS.get(m["participation"]["dominant"]["direction"],
                             m["participation"]["dominant"]["direction"])
                if isinstance(m.get("participation"), dict) and "dominant" in m["participation"]
                else "-" for m in modes]
        colours = [DIR_COLOURS.get(k, "lightgrey") for k in keys]
        legend_title = "dominant direction (effective mass)"
    else:
        keys = [str(m.get("kind", "-")) for m in modes]
        colours = [KIND_COLOURS.get(k, "lightgrey") for k in keys]
        legend_title = "kind"
    rows = 2 if damped else 1
    fig, axes = plt.subplots(rows, 1, figsize=(7, 2.6 + 2.2 * rows), sharex=True,
                             squeeze=False)
    ax = axes[0][0]
    ax.bar(nums, freq, color=colours, edgecolor="black", linewidth=0.4)
    pos = [f for f in freq if f > 0 and math.isfinite(f)]
    if pos and max(pos) / min(pos) > 100:
        ax.set_yscale("log")
    ax.set_ylabel("frequency [Hz]")
    stage = "damped modes" if damped else "undamped modes"
    ax.set_title("%s\n%s" % (short(title_of(rep, path)), stage), fontsize="medium")
    seen = []
    for k, c in zip(keys, colours):
        if k not in [s[0] for s in seen]:
            seen.append((k, c))
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(facecolor=c, edgecolor="black", label=k) for k, c in seen],
              title=legend_title, fontsize="small", title_fontsize="small")
    if damped:
        zeta = [number(m.get("damping_ratio")) for m in modes]
        ax2 = axes[1][0]
        ax2.bar(nums, zeta, color=colours, edgecolor="black", linewidth=0.4)
        ax2.set_ylabel("damping ratio [-]")
        ax2.axhline(0.0, color="black", linewidth=0.5)
    axes[-1][0].set_xlabel("mode")
    if len(nums) <= 30:
        axes[-1][0].set_xticks(nums)
    fig.tight_layout()
    return fig


def model_lines(model):
    """(positions, lines, dots): node positions by index, the polylines to draw (lists of
    node indices: each beam through its nodes NAME.0 .. NAME.E, each spring or bushing
    between its two nodes) and the nodes of the bodies."""
    nodes = model.get("nodes") or []
    pos = [tuple(float(v) for v in n["position"]) for n in nodes]
    index = {}
    for i, n in enumerate(nodes):
        index[n.get("name")] = i
        for a in n.get("aliases") or []:
            index.setdefault(a, i)
    lines, dots = [], []
    for p in model.get("parts") or []:
        kind = p.get("kind")
        if kind == "body" and p.get("node") in index:
            dots.append(index[p["node"]])
        elif kind == "beam":
            e = int(p.get("elements", 0))
            run = [index.get("%s.%d" % (p["name"], k)) for k in range(e + 1)]
            if e > 0 and None not in run:
                lines.append(run)
            else:  # nodes named otherwise: the line between its first and last node
                ends = [index.get(n) for n in p.get("nodes") or []]
                if len(ends) == 2 and None not in ends:
                    lines.append(ends)
        else:  # springs, rotational springs, bushings: between their nodes off the ground
            ends = [index[n] for n in p.get("nodes") or [] if n in index]
            if len(ends) == 2:
                lines.append(ends)
            elif len(ends) == 1:
                dots.append(ends[0])
    return pos, lines, dots


def shape_of(rep, path, mode):
    """The entry of mode `mode` in a model report that holds its shape; exit 2 when the
    report has no model, no such mode or no shape."""
    model = rep.get("model")
    if not isinstance(model, dict) or not model.get("nodes"):
        fail(2, "%s has no model: mode shapes need the report of a model deck (a matrix "
                "deck's report has no geometry)" % path)
    modes = rep.get("modes") or []
    md = next((m for m in modes if int(m.get("mode", 0)) == mode), None)
    if md is None:
        fail(2, "%s has no mode %d (it has %d)" % (path, mode, len(modes)))
    if not md.get("nodes"):
        fail(2, "%s: mode %d has no shape (written with output.eigenvectors: false or "
                "--no-vectors?)" % (path, mode))
    return md


def draw_shape(plt, rep, path, mode):
    """Mode `mode` of a model report over the undeformed model (matplotlib 3D). Returns
    the figure."""
    md = shape_of(rep, path, mode)
    model = rep["model"]
    pos, lines, dots = model_lines(model)
    damped = rep.get("stage") == "complex"
    index = {n.get("name"): i for i, n in enumerate(model["nodes"])}
    disp = [(0.0, 0.0, 0.0)] * len(pos)
    for e in md["nodes"]:
        i = index.get(e.get("node"))
        v = e.get("re") if damped else e.get("value")
        if i is not None and v:
            disp[i] = tuple(number(x) for x in v[:3])
    lo = [min(p[k] for p in pos) for k in range(3)]
    hi = [max(p[k] for p in pos) for k in range(3)]
    size = math.sqrt(sum((h - l) ** 2 for h, l in zip(hi, lo))) or 1.0
    dmax = max(math.sqrt(sum(x * x for x in d)) for d in disp)
    scale = 0.1 * size / dmax if dmax > 0 and math.isfinite(dmax) else 0.0
    moved = [tuple(p[k] + scale * d[k] for k in range(3)) for p, d in zip(pos, disp)]

    fig = plt.figure(figsize=(7, 6))
    ax = fig.add_subplot(projection="3d", computed_zorder=False)  # the mode over the model
    for shape, colour, width, label in ((pos, "0.6", 1.0, "undeformed"),
                                        (moved, "tab:blue", 2.0, "mode %d" % mode)):
        first = True
        for run in lines:
            ax.plot([shape[i][0] for i in run], [shape[i][1] for i in run],
                    [shape[i][2] for i in run], color=colour, linewidth=width,
                    label=label if first else None)
            first = False
        if dots:
            ax.scatter([shape[i][0] for i in dots], [shape[i][1] for i in dots],
                       [shape[i][2] for i in dots], color=colour, s=40, depthshade=False,
                       label=label if first else None)
    all_pts = pos + moved
    lo = [min(p[k] for p in all_pts) for k in range(3)]
    hi = [max(p[k] for p in all_pts) for k in range(3)]
    span = max(max(h - l for h, l in zip(hi, lo)), 1e-9 * size, 1e-12)
    mid = [(h + l) / 2 for h, l in zip(hi, lo)]
    ax.set_xlim(mid[0] - span / 2, mid[0] + span / 2)
    ax.set_ylim(mid[1] - span / 2, mid[1] + span / 2)
    ax.set_zlim(mid[2] - span / 2, mid[2] + span / 2)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    f = number(md.get("frequency_hz"))
    text = "mode %d: %.6g Hz, %s" % (mode, f, md.get("kind", "?"))
    if damped:
        text += ", damping ratio %.3g" % number(md.get("damping_ratio"))
    text += "\ntranslations x %.3g%s (rotations not drawn)" % (scale, ", real part" if damped
                                                               else "")
    ax.set_title("%s\n%s" % (short(title_of(rep, path)), text), fontsize="medium")
    ax.legend(fontsize="small", loc="upper left")
    fig.tight_layout()
    return fig


def pyplot():
    """matplotlib.pyplot on the Agg backend (no display needed); exit 1 when missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(1, NEEDS)
    return plt


def draw_frf(rep, png):
    """An FRF report: scripts/plot_frf.py's draw(report, png), from this script's folder."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        import plot_frf
    except ImportError as e:
        if getattr(e, "name", None) != "plot_frf":  # the module is there, its imports fail
            fail(1, "scripts/plot_frf.py: %s; it %s" % (e, NEEDS))
        fail(1, "FRF plots need scripts/plot_frf.py")
    plot_frf.draw(rep, png)


def main():
    path, png, mode = parse_args(sys.argv[1:])
    rep = load(path)
    if "sweep" in rep:  # a sweep report: scripts/plot_sweep.py
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        try:
            import plot_sweep
        except ImportError as e:
            fail(1, "scripts/plot_sweep.py: %s; it %s" % (e, NEEDS))
        try:
            plot_sweep.draw(rep, png)
        except ValueError as e:
            fail(2, "%s: %s" % (path, e))
        except OSError as e:
            fail(5, "cannot write %s: %s" % (png, e.strerror or e))
        print("plot: %s written" % png)
        return
    if is_frf(rep):
        os.environ["MPLBACKEND"] = "Agg"  # plot_frf's matplotlib draws without a display
        try:
            draw_frf(rep, png)
        except OSError as e:
            fail(5, "cannot write %s: %s" % (png, e.strerror or e))
        print("plot: %s written" % png)
        return
    stage = rep.get("stage")
    if stage not in ("modal", "complex"):
        fail(2, "%s is a report of stage '%s': plots are drawn of modal and complex reports"
             % (path, stage))
    if mode:
        shape_of(rep, path, mode)  # nothing to draw: said before matplotlib loads
    elif not rep.get("modes"):
        fail(2, "%s has no modes to draw" % path)
    plt = pyplot()
    fig = draw_shape(plt, rep, path, mode) if mode else draw_table(plt, rep, path)
    try:
        fig.savefig(png, dpi=DPI)
    except OSError as e:
        fail(5, "cannot write %s: %s" % (png, e.strerror or e))
    print("plot: %s written" % png)


if __name__ == "__main__":
    main()
