#!/usr/bin/python3
"""same_yaml.py: two YAML reports that `mbmodal compare` cannot read (buckling, FRF, sweep)
compare equal: the same keys and strings, every number within rtol of the largest |value|
at the same place (list indices ignored) in the reference; solver statistics, timings and
residuals (round-off sized) are left out.

usage: same_yaml.py REFERENCE OTHER [RTOL]   exit 0: equal, 1: not, 2: unreadable"""
import sys
import yaml

SKIP = {"solver", "profile", "residual", "max_residual", "residuals", "time", "timing"}


def leaves(node, path, out):
    if isinstance(node, dict):
        for k, v in node.items():
            if k not in SKIP:
                leaves(v, path + (str(k),), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            leaves(v, path + ("*",), out)
    else:
        out.append((path, node))


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    rtol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-9
    try:
        docs = [yaml.load(open(p), Loader=yaml.CSafeLoader) for p in sys.argv[1:3]]
    except (OSError, yaml.YAMLError) as e:
        print("same_yaml: %s" % e, file=sys.stderr)
        return 2
    a, b = [], []
    leaves(docs[0], (), a)
    leaves(docs[1], (), b)
    if [p for p, _ in a] != [p for p, _ in b]:
        print("same_yaml: the reports differ in their keys or list lengths")
        return 1
    scale = {}
    for p, v in a:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            scale[p] = max(scale.get(p, 0.0), abs(v))
    bad = 0
    for (p, u), (_, v) in zip(a, b):
        num = isinstance(u, (int, float)) and not isinstance(u, bool)
        if num and isinstance(v, (int, float)):
            if abs(u - v) > rtol * scale[p]:
                bad += 1
                if bad <= 5:
                    print("same_yaml: %s: %r vs %r" % ("/".join(p), u, v))
        elif u != v:
            bad += 1
            if bad <= 5:
                print("same_yaml: %s: %r vs %r" % ("/".join(p), u, v))
    print("same_yaml: %d leaves, %d differ (rtol %g)" % (len(a), bad, rtol))
    return 1 if bad else 0


sys.exit(main())
