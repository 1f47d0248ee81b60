#!/usr/bin/python3
"""check_rayleigh.py: checks a damped (complex) report against the undamped (modal) report of the
same deck with Rayleigh damping R = alpha M + beta K, from the modal equations alone:
  every undamped mode omega gives a damped one with |lambda| = omega and
  zeta = alpha / (2 omega) + beta omega / 2                (independent of mbmodal's code);
  every rigid-body mode gives lambda = 0 (rigid-body) and lambda = -alpha (overdamped; checked
  to 10 % only: the round-off omega_0^2 of a computed rigid-body mode moves it by omega_0^2 / alpha).
Each oscillatory damped mode is paired with the undamped mode of nearest frequency; frequency and
zeta must agree to rtol (relative), and -Re(lambda) / |lambda| must equal the reported zeta.
usage: check_rayleigh.py MODAL.yaml COMPLEX.yaml ALPHA BETA [RTOL]     (RTOL default 1e-6)
Exit status 0 when every mode agrees, 1 otherwise.
"""
import math
import sys

import yaml


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit("usage: check_rayleigh.py MODAL.yaml COMPLEX.yaml ALPHA BETA [RTOL]")
    with open(sys.argv[1]) as f:
        modal = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    with open(sys.argv[2]) as f:
        cplx = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    alpha, beta = float(sys.argv[3]), float(sys.argv[4])
    rtol = float(sys.argv[5]) if len(sys.argv) == 6 else 1e-6
    assert modal["stage"] == "modal" and cplx["stage"] == "complex", "stages: modal, complex"
    undamped = [m for m in modal["modes"] if m["kind"] != "rigid-body"]
    rigid = len(modal["modes"]) - len(undamped)
    bad = checked = 0
    print("check_rayleigh: alpha %g, beta %g, rtol %g; %d undamped modes (%d rigid-body)"
          % (alpha, beta, rtol, len(modal["modes"]), rigid))
    print(" mode    f_complex [Hz]     f_modal [Hz]   rel diff   zeta reported   zeta Rayleigh   rel diff  status")
    for m in cplx["modes"]:
        f = float(m["frequency_hz"])
        if m["kind"] == "rigid-body":
            continue
        if m["kind"] == "overdamped":
            # lambda = -alpha of a rigid-body mode: its round-off omega_0^2 moves it by
            # omega_0^2 / alpha, so only the kind is checked (and that a rigid-body mode exists)
            ok = rigid > 0 and abs(2 * math.pi * f - alpha) <= 0.1 * alpha
            print("%5d %17.10g %16s %10s %15s %15s %10s  %s" % (m["mode"], f, "-", "-", "-", "-", "-",
                                                               "ok (about -alpha)" if ok else "FAIL overdamped"))
            bad += not ok
            continue
        if not undamped:
            print("%5d: no undamped mode to pair with" % m["mode"])
            bad += 1
            continue
        u = min(undamped, key=lambda u: abs(float(u["frequency_hz"]) - f))
        fu = float(u["frequency_hz"])
        w = 2 * math.pi * fu
        z_pred = alpha / (2 * w) + beta * w / 2
        z = float(m["damping_ratio"])
        re, im = (float(t) for t in m["eigenvalue"])
        z_lam = -re / math.hypot(re, im)
        df = abs(f - fu) / fu
        dz = abs(z - z_pred) / z_pred
        ok = df <= rtol and dz <= rtol and abs(z_lam - z) <= 1e-12 + 1e-9 * z
        print("%5d %17.10g %16.10g %10.2e %15.9g %15.9g %10.2e  %s"
              % (m["mode"], f, fu, df, z, z_pred, dz, "ok" if ok else "FAIL"))
        bad += not ok
        checked += 1
    if checked == 0:
        print("check_rayleigh: no damped mode checked")
        return 1
    print("check_rayleigh: %d modes ok, %d failed" % (checked - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
