#!/usr/bin/python3
"""plot_frf.py: draws an mbmodal FRF report (NAME.frf.yaml) as a PNG: magnitude (log) and
phase [deg] against frequency [Hz], one line per (output, input) pair.

As a module: draw(report, png_path) with report the YAML loaded as a dict (what
`mbmodal plot` imports). As a script: plot_frf.py NAME.frf.yaml OUT.png.
Needs matplotlib (/usr/bin/python3 on Debian: python3-matplotlib)."""
import sys


def draw(report: dict, png_path: str) -> None:
    """Writes the Bode plot of every pair of `report` (a loaded NAME.frf.yaml) to png_path."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hz = report["frequency_hz"]
    fig, (ax_m, ax_p) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    for p in report["pairs"]:
        label = "%s / %s" % (p["output"], p["input"])
        if p.get("unit"):
            label += " [%s]" % p["unit"]
        ax_m.plot(hz, p["magnitude"], label=label)
        ax_p.plot(hz, p["phase_deg"], label=label)
    log_x = report.get("spacing", "log") == "log"
    for ax in (ax_m, ax_p):
        if log_x:
            ax.set_xscale("log")
        ax.grid(True, which="both", alpha=0.3)
    ax_m.set_yscale("log")
    ax_m.set_ylabel("magnitude")
    ax_p.set_ylabel("phase [deg]")
    ax_p.set_xlabel("frequency [Hz]")
    title = report.get("title") or report.get("deck", "")
    ax_m.set_title("FRF: %s (%s)" % (title, report.get("damping", "")), fontsize=9)
    ax_m.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_frf.py NAME.frf.yaml OUT.png")
    import yaml
    with open(sys.argv[1]) as f:
        report = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    draw(report, sys.argv[2])


if __name__ == "__main__":
    main()
