#!/usr/bin/python3
"""Checks an mbmodal mode-shape file (.vtu) against the YAML report of the same stage.

    vtk_check.py NAME.modal.vtu NAME.modal.yaml

Reads the .vtu with VTK's own reader (vtkXMLUnstructuredGridReader, the reader ParaView
uses; Python's vtk module from Debian's python3-vtk9, or from python3-paraview, which
replaces it) and the report with PyYAML, and checks:
  - the file reads without VTK errors;
  - points: every model node once (point data node_id 0 .. N-1, N = model.node_count) at
    its report position; other points are ground points (node_id -1);
  - cells: only VTK_VERTEX (1, one point) and VTK_LINE (3, two points); one vertex per
    body part, one line per beam element; cell data `part` indexes field data
    `part_name` = the report's parts, and `kind` matches each part's kind;
  - field data: frequency_hz (and damping_ratio for the complex stage) equal to the
    report's modes;
  - for every mode whose report has node-wise vectors (`nodes`): the fields mode_NN and
    mode_NN_rotation (modal) or mode_NN_re/_im and mode_NN_rotation_re/_im (complex) exist
    and equal the report's vectors to 1e-8 relative to the mode's largest entry; zero on
    ground points.
Prints "vtk_check: ok ..." and exits 0, or prints every mismatch and exits 1 (2 when a file
cannot be read).
"""
import os
import sys

import numpy as np
import yaml

try:
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError:  # pragma: no cover
    sys.stderr.write("vtk_check: Python's vtk module is needed: python3-vtk9 or python3-paraview "
                     "(sh scripts/install-deps.sh)\n")
    sys.exit(2)

RTOL = 1e-8
VTK_VERTEX, VTK_LINE = 1, 3


class ErrorCatcher:
    """Collects VTK error events (the reader reports problems through them, not exceptions)."""

    def __init__(self):
        self.messages = []

    def __call__(self, obj, event):
        if not self.messages:
            self.messages.append("VTK reported errors reading it (its messages are above)")


def read_vtu(path):
    reader = vtk.vtkXMLUnstructuredGridReader()
    catcher = ErrorCatcher()
    reader.AddObserver("ErrorEvent", catcher)
    reader.GetExecutive().AddObserver("ErrorEvent", catcher)
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput(), catcher.messages


def field_name(i, nmodes, suffix=""):
    width = max(2, len(str(nmodes)))
    return "mode_%0*d%s" % (width, i + 1, suffix)


def array(data, name):
    a = data.GetArray(name)
    return None if a is None else vtk_to_numpy(a)


def strings(fd, name):
    a = fd.GetAbstractArray(name)
    if a is None:
        return None
    return [a.GetValue(i) for i in range(a.GetNumberOfValues())]


def close(a, b, scale):
    return np.all(np.abs(np.asarray(a, float) - np.asarray(b, float)) <= RTOL * scale)


def check(vtu, rep):
    errs = []
    if not os.path.isfile(vtu):
        raise OSError("%s: no such file" % vtu)
    grid, vtk_errors = read_vtu(vtu)
    errs += ["%s: %s" % (vtu, m) for m in vtk_errors]
    with open(rep) as f:
        report = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    mdl = report.get("model")
    if not mdl:
        return errs + ["%s: no 'model' block: not a model report" % rep], None
    damped = report.get("stage") == "complex"
    nnodes = mdl["node_count"]
    nodes = mdl["nodes"]
    parts = mdl["parts"]
    modes = report.get("modes") or []

    # points
    pts = vtk_to_numpy(grid.GetPoints().GetData()) if grid.GetPoints() else np.zeros((0, 3))
    pd, cd, fd = grid.GetPointData(), grid.GetCellData(), grid.GetFieldData()
    node_id = array(pd, "node_id")
    if node_id is None:
        return errs + ["%s: point data 'node_id' is missing" % vtu], None
    ids = node_id[node_id >= 0]
    if len(ids) != nnodes or sorted(ids.tolist()) != list(range(nnodes)):
        errs.append("%s: %d node points (node_id >= 0), the report has %d nodes"
                    % (vtu, len(ids), nnodes))
    if np.any(node_id < -1):
        errs.append("%s: node_id below -1" % vtu)
    where = {int(n): k for k, n in enumerate(node_id) if n >= 0}
    for i, nd in enumerate(nodes):
        k = where.get(i)
        if k is not None and not close(pts[k], nd["position"], 1.0 + np.abs(nd["position"]).max()):
            errs.append("%s: node %s at %s, report %s" % (vtu, nd["name"], pts[k].tolist(),
                                                          nd["position"]))
    names = strings(fd, "node_name")
    if names is not None and names != [nd["name"] for nd in nodes]:
        errs.append("%s: field data node_name differs from the report's nodes" % vtu)

    # cells
    ncells = grid.GetNumberOfCells()
    types = np.array([grid.GetCellType(c) for c in range(ncells)], int)
    if np.any((types != VTK_VERTEX) & (types != VTK_LINE)):
        errs.append("%s: cell types %s (only 1 vertex, 3 line)" % (vtu, sorted(set(types.tolist()))))
    for c in range(ncells):
        npts = grid.GetCell(c).GetNumberOfPoints()
        if npts != (1 if types[c] == VTK_VERTEX else 2):
            errs.append("%s: cell %d of type %d has %d points" % (vtu, c, types[c], npts))
            break
    part = array(cd, "part")
    kind = array(cd, "kind")
    if part is None or kind is None:
        errs.append("%s: cell data 'part' or 'kind' is missing" % vtu)
    else:
        if np.any((part < 0) | (part >= len(parts))):
            errs.append("%s: cell data part outside 0 .. %d" % (vtu, len(parts) - 1))
        nbody = sum(1 for p in parts if p["kind"] == "body")
        nelem = sum(p.get("elements", 0) for p in parts if p["kind"] == "beam")
        got_body = int(np.sum((kind == 0) & (types == VTK_VERTEX)))
        got_elem = int(np.sum((kind == 1) & (types == VTK_LINE)))
        if got_body != nbody:
            errs.append("%s: %d body vertices, the report has %d bodies" % (vtu, got_body, nbody))
        if got_elem != nelem:
            errs.append("%s: %d beam lines, the report has %d beam elements" % (vtu, got_elem, nelem))
        for c in range(ncells):
            if 0 <= part[c] < len(parts):
                pk = parts[part[c]]["kind"]
                want = 0 if pk == "body" else 1 if pk == "beam" else 2
                if kind[c] != want:
                    errs.append("%s: cell %d of part %s has kind %d" % (vtu, c, parts[part[c]]["name"], kind[c]))
                    break
    pnames = strings(fd, "part_name")
    if pnames != [p["name"] for p in parts]:
        errs.append("%s: field data part_name %s, report parts %s"
                    % (vtu, pnames, [p["name"] for p in parts]))

    # field data
    freq = array(fd, "frequency_hz")
    want = [m["frequency_hz"] for m in modes]
    if freq is None or len(freq) != len(want) or not close(freq, want, max([1.0] + want)):
        errs.append("%s: frequency_hz %s, report %s" % (vtu, None if freq is None else freq.tolist(), want))
    if damped:
        zeta = array(fd, "damping_ratio")
        wz = [m["damping_ratio"] for m in modes]
        if zeta is None or len(zeta) != len(wz) or not close(zeta, wz, 1.0):
            errs.append("%s: damping_ratio differs from the report" % vtu)

    # mode fields
    checked = 0
    ground = node_id < 0
    for i, m in enumerate(modes):
        nv = m.get("nodes")
        if not nv:
            continue
        if len(nv) != nnodes:
            errs.append("%s: mode %d has %d node vectors for %d nodes" % (rep, i + 1, len(nv), nnodes))
            continue
        parts_c = [("_re", "re"), ("_im", "im")] if damped else [("", "value")]
        scale = max([1e-300] + [abs(v) for e in nv for _, key in parts_c for v in e[key]])
        for suffix, key in parts_c:
            for rot, name in ((0, field_name(i, len(modes), suffix)),
                              (1, field_name(i, len(modes), "_rotation" + suffix))):
                f = array(pd, name)
                if f is None:
                    errs.append("%s: field %s is missing" % (vtu, name))
                    continue
                if f.shape != (len(node_id), 3):
                    errs.append("%s: field %s has shape %s" % (vtu, name, f.shape))
                    continue
                ref = np.array([nv[n][key][3 * rot:3 * rot + 3] for n in node_id[~ground]], float)
                if not close(f[~ground], ref, scale):
                    bad = np.max(np.abs(f[~ground] - ref)) / scale
                    errs.append("%s: field %s differs from the report (max rel. %.3g)" % (vtu, name, bad))
                if np.any(f[ground] != 0):
                    errs.append("%s: field %s is not zero on ground points" % (vtu, name))
        checked += 1
    summary = "%d points, %d cells, %d modes, %d shapes checked" % (len(node_id), ncells, len(modes), checked)
    return errs, summary


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: vtk_check.py NAME.STAGE.vtu NAME.STAGE.yaml\n")
        return 2
    try:
        errs, summary = check(argv[1], argv[2])
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as e:
        sys.stderr.write("vtk_check: %s\n" % e)
        return 2
    if errs:
        for e in errs:
            print("vtk_check: FAIL %s" % e)
        return 1
    print("vtk_check: ok %s (%s)" % (argv[1], summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
