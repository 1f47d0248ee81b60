#!/usr/bin/python3
"""plot_sweep.py: `mbmodal plot` of a sweep report (NAME.sweep.yaml): each tracked mode's
frequency against the swept value (and its damping ratio, when any is not zero); a spin
sweep's picture is its Campbell diagram, with the excitation lines (orders x the spin
frequency) and the critical speeds where they cross a mode. draw(report, png) is called
by scripts/mbmodal_plot.py."""
import math

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DPI = 80


def tracks_of(rep):
    """{track: ([value], [frequency_hz], [damping_ratio], whirl or None)}"""
    out = {}
    for st in rep.get("steps") or []:
        for m in st.get("modes") or []:
            t = out.setdefault(m["track"], ([], [], [], set()))
            t[0].append(float(st["value"]))
            t[1].append(float(m["frequency_hz"]))
            t[2].append(float(m["damping_ratio"]))
            if m.get("whirl"):
                t[3].add(m["whirl"])
    return out


def draw(rep, png):
    """Writes the picture of sweep report rep to png."""
    sw = rep.get("sweep") or {}
    tracks = tracks_of(rep)
    if not tracks:
        raise ValueError("the sweep report has no steps to draw")
    damped = any(abs(z) > 1e-9 for t in tracks.values() for z in t[2])
    fig, axes = plt.subplots(2 if damped else 1, 1, figsize=(7, 6.5 if damped else 4.5),
                             sharex=True, squeeze=False)
    ax = axes[0][0]
    for tid in sorted(tracks):
        x, f, z, whirl = tracks[tid]
        label = "mode %d" % tid + (" (%s)" % next(iter(whirl)) if len(whirl) == 1 else "")
        line, = ax.plot(x, f, marker=".", label=label)
        if damped:
            axes[1][0].plot(x, z, marker=".", color=line.get_color())
    spin = sw.get("spin") is True
    params = ", ".join(sw.get("parameter") or [])
    if spin:
        scale = float(sw.get("spin_speed_per_value", 1.0))
        xs = [float(st["value"]) for st in rep["steps"]]
        lo, hi = min(xs), max(xs)
        fmax = max(max(t[1]) for t in tracks.values())
        for k in sw.get("orders") or []:
            ax.plot([lo, hi], [k * abs(v) * scale / (2 * math.pi) for v in (lo, hi)], "k--",
                    lw=0.8)
            xa = min(abs(hi), 1.08 * fmax * 2 * math.pi / (k * abs(scale)))  # inside
            ax.annotate("%gx" % k, (xa, k * xa * abs(scale) / (2 * math.pi)), fontsize=8,
                        xytext=(3, -3), textcoords="offset points")
        for c in rep.get("critical_speeds") or []:
            ax.plot([c["speed_rad_s"] / scale], [c["frequency_hz"]], "ro", ms=5, mfc="none")
        ax.set_ylim(0, 1.15 * fmax)
        title = "Campbell diagram: " + str(rep["sweep"].get("title") or "")
    else:
        title = "sweep: " + str(sw.get("title") or "")
    ax.set_title(title if len(title) <= 70 else title[:67] + "...")
    ax.set_ylabel("frequency [Hz]")
    ax.grid(True, lw=0.3)
    ax.legend(fontsize=7, loc="best")
    if damped:
        axes[1][0].set_ylabel("damping ratio")
        axes[1][0].grid(True, lw=0.3)
    axes[-1][0].set_xlabel(params + ("  (circles: critical speeds)" if spin else ""))
    fig.tight_layout()
    fig.savefig(png, dpi=DPI)
    plt.close(fig)
