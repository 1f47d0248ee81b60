/* vtk.c: mode shapes for ParaView: the model's nodes and elements with one displacement
   field per mode, as an ASCII XML UnstructuredGrid (.vtu) file. */
#include "vtk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/assemble.h"
#include "writer.h"

enum { VTK_VERTEX = 1, VTK_LINE = 3 };          /* VTK cell type codes */
enum { KIND_BODY = 0, KIND_BEAM = 1, KIND_FORCE = 2 };
#define PER_LINE 6                               /* numbers per line of a data array */

/* The mesh: points (nodes, then ground points) and cells with their part and kind.
   Built by geom_build, freed by geom_clear. */
typedef struct vtk_geom {
  int npoints;           /* nnodes + ground points */
  double *xyz;           /* 3 npoints [m] */
  int *node_id;          /* npoints: node index, -1 for a ground point */
  int ncells;
  long nconn;            /* entries of conn */
  long *conn;            /* point indices of the cells, concatenated */
  long *offsets;         /* ncells: end of each cell in conn */
  unsigned char *types;  /* ncells: VTK_VERTEX or VTK_LINE */
  int *part, *kind;      /* ncells */
  model_part *parts;     /* model_parts' list, owned */
  int nparts;
  const char **names;    /* scratch for the name arrays, max(nparts, nnodes) + 1 */
} vtk_geom;

static void geom_clear (vtk_geom *g)
{
  free (g->xyz);
  free (g->node_id);
  free (g->conn);
  free (g->offsets);
  free (g->types);
  free (g->part);
  free (g->kind);
  free (g->parts);
  free (g->names);
  memset (g, 0, sizeof *g);
}

static int valid_node (const model *m, int i)
{
  return i >= 0 && i < m->nnodes;
}

/* Appends a cell of np points (1 or 2) of part p and kind k. Room is reserved. */
static void add_cell (vtk_geom *g, int np, long p0, long p1, int part, int kind)
{
  g->conn[g->nconn++] = p0;
  if (np == 2) g->conn[g->nconn++] = p1;
  g->offsets[g->ncells] = g->nconn;
  g->types[g->ncells] = np == 2 ? VTK_LINE : VTK_VERTEX;
  g->part[g->ncells] = part;
  g->kind[g->ncells] = kind;
  g->ncells++;
}

/* The point where force fo meets the ground: a spring's attachment point on its ground
   end, a bushing's frame origin, else (rotational spring) the node itself; returns 1 and
   fills p when it lies off the node, 0 when the element shrinks to the node. */
static int ground_point (const model *m, const model_force *fo, int node, double p[3])
{
  const double *q = m->nodes[node].x;
  if (fo->type == FORCE_SPRING) memcpy (p, fo->a == MODEL_GROUND ? fo->pa : fo->pb, 3 * sizeof *p);
  else if (fo->type == FORCE_BUSHING) memcpy (p, fo->x, 3 * sizeof *p);
  else return 0;
  double d = 0, s = 0;
  for (int k = 0; k < 3; k++) {
    d += (p[k] - q[k]) * (p[k] - q[k]);
    s += q[k] * q[k];
  }
  return sqrt (d) > 1e-12 * (1.0 + sqrt (s));
}

/* One part's cells (and ground point). */
static void add_part (vtk_geom *g, const model *m, int ip)
{
  const model_part *pt = &g->parts[ip];
  if (pt->kind == PART_BODY && pt->index >= 0 && pt->index < m->nbodies) {
    int nd = m->bodies[pt->index].node;
    if (valid_node (m, nd)) add_cell (g, 1, nd, 0, ip, KIND_BODY);
  }
  else if (pt->kind == PART_BEAM && pt->index >= 0 && pt->index < m->nbeams) {
    const model_beam *b = &m->beams[pt->index];
    for (int e = 0; e < b->nelements; e++)
      if (valid_node (m, b->first_node + e) && valid_node (m, b->first_node + e + 1))
        add_cell (g, 2, b->first_node + e, b->first_node + e + 1, ip, KIND_BEAM);
  }
  else if (pt->kind == PART_FORCE && pt->index >= 0 && pt->index < m->nforces) {
    const model_force *fo = &m->forces[pt->index];
    int a = valid_node (m, fo->a) ? fo->a : -1, b = valid_node (m, fo->b) ? fo->b : -1;
    if (a >= 0 && b >= 0) add_cell (g, 2, a, b, ip, KIND_FORCE);
    else if (a >= 0 || b >= 0) {
      int nd = a >= 0 ? a : b;
      double p[3];
      if (ground_point (m, fo, nd, p)) {
        memcpy (g->xyz + 3 * (size_t) g->npoints, p, sizeof p);
        g->node_id[g->npoints] = -1;
        add_cell (g, 2, g->npoints++, nd, ip, KIND_FORCE);
      }
      else add_cell (g, 1, nd, 0, ip, KIND_FORCE);
    }
  }
}

/* Points and cells of mdl. Returns 0 or MB_ENOMEM. */
static int geom_build (vtk_geom *g, const model *m, mb_err *err)
{
  memset (g, 0, sizeof *g);
  g->nparts = model_parts (m, &g->parts);
  if (g->nparts < 0) {
    g->nparts = 0;
    return mb_fail (err, MB_ENOMEM, "out of memory listing the model's parts");
  }
  long cells = 0;  /* upper bounds: every body one, every element one, every force one */
  cells += m->nbodies + m->nforces;
  for (int b = 0; b < m->nbeams; b++) cells += m->beams[b].nelements > 0 ? m->beams[b].nelements : 0;
  size_t maxpts = (size_t) m->nnodes + (size_t) (m->nforces > 0 ? m->nforces : 0) + 1;
  size_t maxcells = (size_t) cells + 1;
  g->xyz = mb_calloc (3 * maxpts, sizeof *g->xyz);
  g->node_id = mb_calloc (maxpts, sizeof *g->node_id);
  g->conn = mb_calloc (2 * maxcells, sizeof *g->conn);
  g->offsets = mb_calloc (maxcells, sizeof *g->offsets);
  g->types = mb_calloc (maxcells, sizeof *g->types);
  g->part = mb_calloc (maxcells, sizeof *g->part);
  g->kind = mb_calloc (maxcells, sizeof *g->kind);
  g->names = mb_calloc ((size_t) (g->nparts > m->nnodes ? g->nparts : m->nnodes) + 1,
                        sizeof *g->names);
  if (!g->xyz || !g->node_id || !g->conn || !g->offsets || !g->types || !g->part || !g->kind
      || !g->names) {
    geom_clear (g);
    return mb_fail (err, MB_ENOMEM, "out of memory for the VTK mesh");
  }
  for (int i = 0; i < m->nnodes; i++) {
    memcpy (g->xyz + 3 * (size_t) i, m->nodes[i].x, 3 * sizeof (double));
    g->node_id[i] = i;
  }
  g->npoints = m->nnodes;
  for (int ip = 0; ip < g->nparts; ip++) add_part (g, m, ip);
  return 0;
}

/* ---------------------------------------------------------------- writing */

/* v with 17 significant digits (reads back exactly); 0 for a non-finite v. */
static void put_num (FILE *f, double v)
{
  writer_put_real (f, v, WRITER_DIGITS17);
}

/* Breaks the line every PER_LINE items inside a data array. */
static void put_sep (FILE *f, long k)
{
  if (k == 0) fputs ("          ", f);
  else if (k % PER_LINE == 0) fputs ("\n          ", f);
  else fputc (' ', f);
}

static void close_array (FILE *f, const char *tag)
{
  fprintf (f, "\n        </%s>\n", tag);
}

/* A String array: each string as its byte values, then 0 (VTK's ASCII form). */
static void put_strings (FILE *f, const char *name, const char *const *s, int count)
{
  fprintf (f, "        <Array type=\"String\" Name=\"%s\" NumberOfTuples=\"%d\" format=\"ascii\">\n",
           name, count);
  long k = 0;
  for (int i = 0; i < count; i++) {
    for (const unsigned char *p = (const unsigned char *) (s[i] ? s[i] : ""); *p; p++) {
      put_sep (f, k++);
      fprintf (f, "%u", (unsigned) *p);
    }
    put_sep (f, k++);
    fputc ('0', f);
  }
  close_array (f, "Array");
}

/* An Int32 array of count values. */
static void put_ints (FILE *f, const char *name, const int *v, long count)
{
  fprintf (f, "        <DataArray type=\"Int32\" Name=\"%s\" format=\"ascii\">\n", name);
  for (long k = 0; k < count; k++) {
    put_sep (f, k);
    fprintf (f, "%d", v[k]);
  }
  close_array (f, "DataArray");
}

/* The field data: mode numbers, frequencies, eigenvalues (damping), part and node names. */
static void put_field_data (FILE *f, const model *m, const eigen_result *r, vtk_geom *g)
{
  int damped = r->stage == STAGE_COMPLEX, nm = r->modes ? r->nmodes : 0;
  fputs ("    <FieldData>\n", f);
  fprintf (f, "        <DataArray type=\"Int32\" Name=\"mode\" NumberOfTuples=\"%d\" "
           "format=\"ascii\">\n", nm);
  for (int i = 0; i < nm; i++) {
    put_sep (f, i);
    fprintf (f, "%d", i + 1);
  }
  close_array (f, "DataArray");
  static const char *const keys[] = { "frequency_hz", "damping_ratio", "damped_frequency_hz" };
  for (int k = 0; k < (damped ? 3 : 1); k++) {
    fprintf (f, "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfTuples=\"%d\" "
             "format=\"ascii\">\n", keys[k], nm);
    for (int i = 0; i < nm; i++) {
      const mode *md = &r->modes[i];
      put_sep (f, i);
      put_num (f, k == 0 ? md->freq_hz : k == 1 ? md->zeta : md->damped_freq_hz);
    }
    close_array (f, "DataArray");
  }
  fprintf (f, "        <DataArray type=\"Float64\" Name=\"eigenvalue\" NumberOfComponents=\"%d\" "
           "NumberOfTuples=\"%d\" format=\"ascii\">\n", damped ? 2 : 1, nm);
  for (int i = 0, k = 0; i < nm; i++) {
    put_sep (f, k++);
    put_num (f, creal (r->modes[i].lambda));
    if (damped) {
      put_sep (f, k++);
      put_num (f, cimag (r->modes[i].lambda));
    }
  }
  close_array (f, "DataArray");
  for (int i = 0; i < g->nparts; i++) g->names[i] = g->parts[i].name;
  put_strings (f, "part_name", g->names, g->nparts);
  for (int i = 0; i < m->nnodes; i++) g->names[i] = m->nodes[i].name;
  put_strings (f, "node_name", g->names, m->nnodes);
  fputs ("    </FieldData>\n", f);
}

/* Name of mode i's field: "mode_01" + suffix, zero-padded to the width of nmodes. */
static void field_name (char *buf, size_t len, int i, int nmodes, const char *suffix)
{
  char num[16];
  int digits = snprintf (num, sizeof num, "%d", i + 1), width = 2;
  for (int n = nmodes; n >= 100; n /= 10) width++;
  snprintf (buf, len, "mode_%.*s%s%s", width > digits ? width - digits : 0, "0000000000",
            num, suffix);
}

/* A 3-component Float64 point field: DOFs q0..q0+2 of each node, real (part 0) or
   imaginary (part 1) parts of x; zero on ground points. */
static void put_mode_field (FILE *f, const char *name, const vtk_geom *g,
                            const double complex *x, int q0, int part)
{
  fprintf (f, "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"3\" "
           "format=\"ascii\">\n", name);
  long k = 0;
  for (int p = 0; p < g->npoints; p++)
    for (int c = 0; c < 3; c++) {
      double v = 0.0;
      if (g->node_id[p] >= 0) {
        double complex z = x[6 * (size_t) g->node_id[p] + (size_t) q0 + (size_t) c];
        v = part ? cimag (z) : creal (z);
      }
      put_sep (f, k++);
      put_num (f, v);
    }
  close_array (f, "DataArray");
}

/* node_id and the mode fields. */
static void put_point_data (FILE *f, const eigen_result *r, const vtk_geom *g)
{
  int damped = r->stage == STAGE_COMPLEX, nm = r->modes ? r->nmodes : 0, first = -1;
  char name[64];
  for (int i = 0; i < nm && first < 0; i++)
    if (r->modes[i].x) first = i;
  fputs ("      <PointData Scalars=\"node_id\"", f);
  if (first >= 0) {
    field_name (name, sizeof name, first, nm, damped ? "_re" : "");
    fprintf (f, " Vectors=\"%s\"", name);
  }
  fputs (">\n", f);
  put_ints (f, "node_id", g->node_id, g->npoints);
  for (int i = 0; i < nm; i++) {
    const double complex *x = r->modes[i].x;
    if (!x) continue;
    for (int rot = 0; rot < 2; rot++)
      for (int part = 0; part < (damped ? 2 : 1); part++) {
        char suffix[24];
        snprintf (suffix, sizeof suffix, "%s%s", rot ? "_rotation" : "",
                  damped ? (part ? "_im" : "_re") : "");
        field_name (name, sizeof name, i, nm, suffix);
        put_mode_field (f, name, g, x, 3 * rot, part);
      }
  }
  fputs ("      </PointData>\n", f);
}

/* Points and cells. */
static void put_mesh (FILE *f, const vtk_geom *g)
{
  fputs ("      <CellData Scalars=\"part\">\n", f);
  put_ints (f, "part", g->part, g->ncells);
  put_ints (f, "kind", g->kind, g->ncells);
  fputs ("      </CellData>\n      <Points>\n", f);
  fputs ("        <DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" "
         "format=\"ascii\">\n", f);
  for (long k = 0; k < 3L * g->npoints; k++) {
    put_sep (f, k);
    put_num (f, g->xyz[k]);
  }
  close_array (f, "DataArray");
  fputs ("      </Points>\n      <Cells>\n", f);
  fputs ("        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n", f);
  for (long k = 0; k < g->nconn; k++) {
    put_sep (f, k);
    fprintf (f, "%ld", g->conn[k]);
  }
  close_array (f, "DataArray");
  fputs ("        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n", f);
  for (long k = 0; k < g->ncells; k++) {
    put_sep (f, k);
    fprintf (f, "%ld", g->offsets[k]);
  }
  close_array (f, "DataArray");
  fputs ("        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n", f);
  for (long k = 0; k < g->ncells; k++) {
    put_sep (f, k);
    fprintf (f, "%u", (unsigned) g->types[k]);
  }
  close_array (f, "DataArray");
  fputs ("      </Cells>\n", f);
}

/* The whole file. */
static void put_vtu (FILE *f, const model *m, const eigen_result *r, vtk_geom *g)
{
  fputs ("<?xml version=\"1.0\"?>\n", f);
  fprintf (f, "<!-- mbmodal mode shapes, %s; fields mode_NN: translations [dx dy dz], "
           "mode_NN_rotation: rotations [rx ry rz] -->\n",
           r->stage == STAGE_COMPLEX ? "damped modes (complex stage)"
                                     : "undamped modes (modal stage)");
  fputs ("<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\" "
         "header_type=\"UInt32\">\n  <UnstructuredGrid>\n", f);
  put_field_data (f, m, r, g);
  fprintf (f, "    <Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n", g->npoints, g->ncells);
  put_point_data (f, r, g);
  put_mesh (f, g);
  fputs ("    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n", f);
}

/* Builds the mesh, writes it with the mode fields, checks every write and the close
   (writer.c). */
int vtk_write_modes (const char *path, const model *mdl, const eigen_result *r, mb_err *err)
{
  if (!path || !mdl || !r) return mb_fail (err, MB_EIO, "vtk: no path, model or result");
  if (mdl->nnodes < 0 || r->n != 6 * mdl->nnodes)
    return mb_fail_at (err, MB_EIO, path, 0, 0, "vtk: the model has %d nodes (%d DOFs) but "
                       "the result has %d DOFs", mdl->nnodes, 6 * mdl->nnodes, r->n);
  vtk_geom g;
  MB_TRY (geom_build (&g, mdl, err));
  writer w;
  int rc = writer_open (&w, path, "the mode shapes", err);
  if (rc == 0) {
    put_vtu (w.f, mdl, r, &g);
    rc = writer_commit (&w, err);
  }
  geom_clear (&g);
  return rc;
}
