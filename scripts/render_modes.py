"""render_modes.py: PNG pictures of mbmodal mode shapes with ParaView (run by pvbatch).

    pvbatch scripts/render_modes.py NAME.STAGE.vtu [--modes N] [--outdir DIR]
                                    [--scale S] [--size WxH]

(scripts/render_modes.sh finds a display for pvbatch.) For each of the first N modes
(default 6) with a shape in the file, writes DIR/NAME.STAGE.mode_NN.png (DIR defaults to the
.vtu's folder): the undeformed model in light grey; the model warped by the mode's
translation field (mode_NN, or mode_NN_re for a damped mode: the shape at phase 0), beams
and force elements as tubes, bodies as spheres, coloured by the displacement magnitude;
a title with the mode number and frequency (damping ratio for a damped mode).

Scale: the largest nodal translation of each mode is drawn as --scale (default 0.12) times
the model's size (the diagonal of its bounding box). A mode whose translations are below
1e-3 times its largest rotation times the model's size (a body turning, a torsion mode) is
drawn undeformed and coloured by the rotation magnitude instead. Only the .vtu written by mbmodal is assumed: point data node_id and the
mode fields, cell data kind (0 body, 1 beam, 2 force element), field data frequency_hz
(damping_ratio).
"""
import math
import os
import sys

from paraview import servermanager
from paraview.simple import (ColorBy, Delete, ExtractSurface, GetActiveViewOrCreate,
                             GetColorTransferFunction, GetScalarBar, Glyph, Hide, Render,
                             SaveScreenshot, SetActiveSource, Show, Text, Threshold, Tube,
                             WarpByVector, XMLUnstructuredGridReader)
from vtk.util.numpy_support import vtk_to_numpy
import numpy as np

GREY = [0.75, 0.75, 0.75]


def parse_args(argv):
    opts = {"modes": 6, "outdir": None, "scale": 0.12, "size": (1200, 900)}
    files = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--modes", "--outdir", "--scale", "--size"):
            if i + 1 >= len(argv):
                raise SystemExit("render_modes: %s needs a value" % a)
            v = argv[i + 1]
            i += 2
            if a == "--modes":
                opts["modes"] = int(v)
            elif a == "--outdir":
                opts["outdir"] = v
            elif a == "--scale":
                opts["scale"] = float(v)
            else:
                w, h = v.lower().split("x")
                opts["size"] = (int(w), int(h))
        elif a in ("-h", "--help"):
            print(__doc__)
            raise SystemExit(0)
        else:
            files.append(a)
            i += 1
    if len(files) != 1:
        raise SystemExit("usage: pvbatch render_modes.py NAME.STAGE.vtu [--modes N] [--outdir DIR] "
                         "[--scale S] [--size WxH]")
    return files[0], opts


def field_name(i, nmodes, suffix=""):
    return "mode_%0*d%s" % (max(2, len(str(nmodes))), i + 1, suffix)


def max_norm(pd, name, mask):
    a = pd.GetArray(name)
    if a is None:
        return None
    v = vtk_to_numpy(a)[mask]
    return float(np.sqrt((v ** 2).sum(axis=1)).max()) if len(v) else 0.0


def by_kind(source, lo, hi):
    """The cells of source whose cell data kind is in [lo, hi]."""
    t = Threshold(Input=source)
    t.Scalars = ["CELLS", "kind"]
    t.LowerThreshold = lo
    t.UpperThreshold = hi
    t.ThresholdMethod = "Between"
    return t


def place_camera(view, center, size):
    """An oblique view from (+x, -y, +z), z up, the model filling the picture."""
    direction = np.array([1.0, -1.4, 0.9])
    direction /= np.linalg.norm(direction)
    cam = view.GetActiveCamera()
    cam.SetFocalPoint(*center.tolist())
    cam.SetPosition(*(center + 3.0 * size * direction).tolist())
    cam.SetViewUp(0.0, 0.0, 1.0)
    view.ResetCamera(False)
    cam.Zoom(0.8)  # a margin for the title


def main(argv):
    vtu, opts = parse_args(argv)
    vtu = os.path.abspath(vtu)
    outdir = opts["outdir"] or os.path.dirname(vtu)
    os.makedirs(outdir, exist_ok=True)
    base = os.path.basename(vtu)[:-4] if vtu.endswith(".vtu") else os.path.basename(vtu)

    reader = XMLUnstructuredGridReader(FileName=[vtu])
    reader.UpdatePipeline()
    data = servermanager.Fetch(reader)
    pd, fd = data.GetPointData(), data.GetFieldData()
    node_id = vtk_to_numpy(pd.GetArray("node_id"))
    nodes = node_id >= 0
    pts = vtk_to_numpy(data.GetPoints().GetData())
    size = float(np.linalg.norm(pts.max(axis=0) - pts.min(axis=0))) or 1.0
    center = 0.5 * (pts.max(axis=0) + pts.min(axis=0))
    freq = vtk_to_numpy(fd.GetArray("frequency_hz")) if fd.GetArray("frequency_hz") else []
    zeta_a = fd.GetArray("damping_ratio")
    zeta = vtk_to_numpy(zeta_a) if zeta_a else None
    damped = zeta is not None
    nmodes = len(freq)
    kind = vtk_to_numpy(data.GetCellData().GetArray("kind"))
    has_lines, has_bodies = bool(np.any(kind >= 1)), bool(np.any(kind == 0))

    view = GetActiveViewOrCreate("RenderView")
    view.ViewSize = list(opts["size"])
    view.Background = [1, 1, 1]
    try:
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    view.OrientationAxesVisibility = 1

    # undeformed: light grey lines and points
    ghost = Show(reader, view)
    ghost.SetRepresentationType("Wireframe")
    ColorBy(ghost, None)
    ghost.AmbientColor = GREY
    ghost.DiffuseColor = GREY
    ghost.LineWidth = 2.0
    ghost.PointSize = 6.0
    ghost.RenderPointsAsSpheres = 1
    ghost.Opacity = 0.6

    Render(view)  # the first render resets the camera: done here, before placing it
    written = 0
    for i in range(nmodes):
        if written >= opts["modes"]:
            break
        tname = field_name(i, nmodes, "_re" if damped else "")
        rname = field_name(i, nmodes, "_rotation_re" if damped else "_rotation")
        umax = max_norm(pd, tname, nodes)
        if umax is None:
            continue
        rmax = max_norm(pd, rname, nodes) or 0.0
        # translations below 1e-3 of the rotations times the model size: a rotation mode
        translating = umax > 1e-3 * rmax * size and umax > 0
        scale = opts["scale"] * size / umax if translating else 0.0
        colour = tname if translating else rname

        warp = WarpByVector(Input=reader)
        warp.Vectors = ["POINTS", tname]
        warp.ScaleFactor = scale
        thr_lines = by_kind(warp, 1, 2)
        lines = ExtractSurface(Input=thr_lines)
        tubes = Tube(Input=lines)
        tubes.Radius = 0.006 * size
        tubes.NumberofSides = 16
        bodies = by_kind(warp, 0, 0)
        spheres = Glyph(Input=bodies, GlyphType="Sphere")
        spheres.ScaleArray = ["POINTS", "No scale array"]
        spheres.ScaleFactor = 0.05 * size
        spheres.GlyphMode = "All Points"
        shown = []
        for src, present in ((tubes, has_lines), (spheres, has_bodies)):
            if not present:
                continue
            d = Show(src, view)
            ColorBy(d, ("POINTS", colour, "Magnitude"))
            d.RescaleTransferFunctionToDataRange(True, False)
            shown.append(d)
        lut = GetColorTransferFunction(colour)
        lut.ApplyPreset("Cool to Warm", True)
        if shown:
            shown[0].SetScalarBarVisibility(view, True)
        bar = GetScalarBar(lut, view)
        bar.Title = "translation magnitude" if translating else "rotation magnitude"
        bar.ComponentTitle = ""
        bar.TitleColor = [0, 0, 0]
        bar.LabelColor = [0, 0, 0]
        bar.TitleFontSize = 18
        bar.LabelFontSize = 16

        title = "Mode %d: f = %.6g Hz" % (i + 1, freq[i])
        if damped:
            title += ", zeta = %.4g (real part)" % zeta[i]
        if translating:
            title += "\nlargest translation drawn as %.3g m (scale %.3g)" % (opts["scale"] * size, scale)
        else:
            title += "\nrotation mode: drawn undeformed, coloured by the rotation magnitude"
        text = Text(Text=title)
        td = Show(text, view)
        td.WindowLocation = "Upper Center"
        td.FontSize = 22
        td.Color = [0, 0, 0]

        place_camera(view, center, size)
        Render(view)
        png = os.path.join(outdir, "%s.%s.png" % (base, field_name(i, nmodes)))
        SaveScreenshot(png, view, ImageResolution=list(opts["size"]))
        print("render_modes: %s" % png)
        written += 1

        for src in (text, spheres, bodies, tubes, lines, thr_lines):
            Hide(src, view)
            Delete(src)
        Hide(warp, view)
        Delete(warp)
        SetActiveSource(reader)
    Hide(reader, view)
    Delete(reader)
    Delete(view)
    if written == 0:
        print("render_modes: no mode shapes in %s" % vtu)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
