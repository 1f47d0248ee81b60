/* static_report.c: the static equilibrium report, YAML, same conventions as the eigen
   reports (format mbmodal-report, format_version 1, stage: static). */
#include "static_report.h"

#include "writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void num (FILE *f, double v) { writer_put_real (f, v, WRITER_YAML); }

static void vec (FILE *f, const double *v, int n)
{
  fputc ('[', f);
  for (int k = 0; k < n; k++) {
    if (k) fputs (", ", f);
    num (f, v[k]);
  }
  fputc (']', f);
}

static void key_num (FILE *f, int indent, const char *key, double v)
{
  fprintf (f, "%*s%s: ", indent, "", key);
  num (f, v);
  fputc ('\n', f);
}

static void quoted (FILE *f, const char *s) { writer_put_quoted (f, s, NULL); }

static const char *phase_name (int phase)
{
  return phase == 1 ? "mkeam" : phase == 2 ? "polish" : "newton";
}

/* 1 when alias a of node nd is a name the deck gave it: not the node's own name and not a
   beam's BEAM.start / BEAM.end (BEAM.<i> is the node's own name). */
static int deck_name (const model *mdl, const model_node *nd, const model_alias *a)
{
  if (!strcmp (a->name, nd->name)) return 0;
  if (nd->beam < 0) return 1;
  const char *b = mdl->beams[nd->beam].name;
  size_t lb = strlen (b);
  return !(strncmp (a->name, b, lb) == 0 && a->name[lb] == '.'
           && (!strcmp (a->name + lb + 1, "start") || !strcmp (a->name + lb + 1, "end")));
}

/* nodes[]: position, displacement, rotation log(R R0^T), orientation and `names`, the
   names the deck gave the node (a beam node's `nodes: {tip1: 30}`), found through
   next[] (naliases), a list per node of its aliases (head[i]: first, -1: none), in the
   aliases' order (sorted by name). next and head are caller-owned work arrays. */
static void put_nodes (FILE *f, const model *mdl, const model_state *s, int *head, int *next)
{
  for (int i = 0; i < mdl->nnodes; i++) head[i] = -1;
  for (int k = mdl->naliases - 1; k >= 0; k--) {
    int i = mdl->aliases[k].node;
    if (i < 0 || i >= mdl->nnodes) continue;
    next[k] = head[i];
    head[i] = k;
  }
  fputs ("nodes:\n", f);
  for (int i = 0; i < mdl->nnodes; i++) {
    const model_node *nd = &mdl->nodes[i];
    const double *x = s->x + 3 * i, *R = s->R + 9 * i;
    double d[3], dR[9], w[3];
    for (int k = 0; k < 3; k++) d[k] = x[k] - nd->x[k];
    for (int a = 0; a < 3; a++)  /* dR = R R0^T: the rotation from the deck pose */
      for (int b = 0; b < 3; b++) {
        dR[3 * a + b] = 0;
        for (int k = 0; k < 3; k++) dR[3 * a + b] += R[3 * a + k] * nd->R[3 * b + k];
      }
    model_rot_log (dR, w);
    fprintf (f, "  - node: %d\n    name: ", i + 1);
    quoted (f, nd->name);
    fputs ("\n    names: [", f);
    int any = 0;
    for (int k = head[i]; k >= 0; k = next[k]) {
      if (!deck_name (mdl, nd, &mdl->aliases[k])) continue;
      if (any++) fputs (", ", f);
      quoted (f, mdl->aliases[k].name);
    }
    fputc (']', f);
    fputs ("\n    position: ", f);
    vec (f, x, 3);
    fputs ("\n    displacement: ", f);
    vec (f, d, 3);
    fputs ("\n    rotation: ", f);
    vec (f, w, 3);
    fputs ("\n    orientation: ", f);
    vec (f, R, 9);
    fputc ('\n', f);
  }
}

static void put_joints (FILE *f, const model *mdl, const model_state *s)
{
  fprintf (f, "joints:%s\n", mdl->njoints ? "" : " []");
  for (int j = 0; j < mdl->njoints; j++) {
    const model_joint *jt = &mdl->joints[j];
    double x[3], R[9], force[3] = { 0, 0, 0 }, torque[3] = { 0, 0, 0 };
    model_joint_frame_at (mdl, s, j, x, R);
    fputs ("  - name: ", f);
    quoted (f, jt->name);
    fprintf (f, "\n    type: %s\n    origin: ", model_joint_type_name (jt->type));
    vec (f, x, 3);
    fputs ("\n    axes: ", f);
    vec (f, R, 9);
    fputs ("\n    rows:\n", f);
    for (int k = 0; k < jt->nrows; k++) {
      char row[64];
      double g = s->gamma ? s->gamma[jt->first_row + k] : 0;
      model_joint_row_name (jt, k, row, sizeof row);
      fprintf (f, "      - {row: \"%s\", multiplier: ", row);
      num (f, g);
      fputs ("}\n", f);
      int ax = jt->frame_axis[k];
      if (ax < 0) ax = 0;  /* distance: along its line, shown as force[0] */
      if (jt->is_rotation[k]) torque[ax] += g;
      else force[ax] += g;
    }
    fputs ("    force: ", f);
    vec (f, force, 3);
    fputs ("\n    torque: ", f);
    vec (f, torque, 3);
    fputc ('\n', f);
  }
}

/* springs[]: translational and rotational springs (elongation or rotation, force or
   torque) and bushings (force and torque on each node, global axes, torque about the
   node: model_bushing_at). */
static void put_springs (FILE *f, const model *mdl, const model_state *s)
{
  int any = 0;
  for (int i = 0; i < mdl->nforces; i++) {
    double ext, force, fa[6], fb[6];
    if (model_bushing_at (mdl, s, i, fa, fb) == 0) {
      const model_force *fc = &mdl->forces[i];
      if (!any) fputs ("springs:\n", f);
      any = 1;
      fputs ("  - name: ", f);
      quoted (f, fc->name);
      fputs ("\n    kind: bushing\n    nodes:\n", f);
      for (int k = 0; k < 2; k++) {
        int nd = k ? fc->b : fc->a;
        if (nd < 0) continue;  /* ground */
        fputs ("      - node: ", f);
        quoted (f, mdl->nodes[nd].name);
        fputs ("\n        force: ", f);
        vec (f, k ? fb : fa, 3);
        fputs ("\n        torque: ", f);
        vec (f, k ? fb + 3 : fa + 3, 3);
        fputc ('\n', f);
      }
      continue;
    }
    if (model_spring_at (mdl, s, i, &ext, &force) != 0) continue;
    if (!any) fputs ("springs:\n", f);
    any = 1;
    int rot = mdl->forces[i].type == FORCE_ROTATIONAL_SPRING;
    fputs ("  - name: ", f);
    quoted (f, mdl->forces[i].name);
    fprintf (f, "\n    kind: %s\n", rot ? "rotational_spring" : "spring");
    key_num (f, 4, rot ? "rotation" : "elongation", ext);
    key_num (f, 4, rot ? "torque" : "force", force);
  }
  if (!any) fputs ("springs: []\n", f);
}

/* The static report's heading (method, format, stage, deck, title, units, problem size)
   and its settings block (the solver's options as given). */
static void put_static_settings (FILE *f, const model *mdl, const statics_opts *par,
                                 const char *deck_path, const char *title)
{
  fprintf (f, "# mbmodal report: static equilibrium (%s)\n",
           par->method == STATICS_ALG_MKEAM ? "MKEAM, then FIM polish"
           : "FIM, Newton-Raphson");
  fputs ("format: mbmodal-report\nformat_version: 1\nstage: static\n", f);
  if (deck_path) fputs ("deck: ", f), quoted (f, deck_path), fputc ('\n', f);
  if (title) fputs ("title: ", f), quoted (f, title), fputc ('\n', f);
  fputs ("units: {length: m, angle: rad, force: N, torque: N m, energy: J, time: s}\n", f);
  fprintf (f, "problem: {dofs: %d, constraints: %d}\n", 6 * mdl->nnodes, mdl->nconstraints);
  fprintf (f, "settings:\n  method: %s\n", statics_alg_name (par->method));
  key_num (f, 2, "max_imbalance", par->max_imbalance);
  key_num (f, 2, "max_error", par->max_error);
  key_num (f, 2, "stability", par->stability);
  fprintf (f, "  max_num_iter: %d\n", par->max_num_iter);
  key_num (f, 2, "max_ke_tol", par->max_ke_tol);
  key_num (f, 2, "max_dq_tol", par->max_dq_tol);
  if (par->p_f > 0) key_num (f, 2, "p_f", par->p_f);
  else fputs ("  p_f: null\n", f);
  fprintf (f, "  allow_unconverged: %s\n", par->allow_unconverged ? "true" : "false");
}

/* The convergence block: converged, reason, iterations, the final measures, why the
   solver stopped with the imbalance tolerance and its rule, the load scale, the tangent's
   kind, the stability verdict (null when not converged, unknown with its note when the
   inertia could not be read) and the time. */
static void put_convergence (FILE *f, const model *mdl, const statics_opts *par,
                             const statics_result *res)
{
  fprintf (f, "convergence:\n  converged: %s\n  reason: ", res->converged ? "true" : "false");
  quoted (f, res->reason);
  fprintf (f, "\n  iterations: %d\n", res->iterations);
  if (par->method == STATICS_ALG_MKEAM)
    fprintf (f, "  peaks: %d\n  polish_iterations: %d\n", res->peaks, res->polish);
  key_num (f, 2, "imbalance", res->imbalance);
  key_num (f, 2, "constraint", res->constraint);
  key_num (f, 2, "change", res->change);
  fputs ("  stop: ", f);  /* why the solver stopped, and the tolerance it used on |F| */
  quoted (f, statics_stop_name (res->stop));
  fputc ('\n', f);
  if (res->tolerance > 0) {
    char rule[160];
    statics_tolerance_words (res, par, rule, sizeof rule);
    key_num (f, 2, "imbalance_tolerance", res->tolerance);
    fputs ("  tolerance_rule: ", f);
    quoted (f, rule);
    fputc ('\n', f);
  } else fputs ("  imbalance_tolerance: null\n  tolerance_rule: null\n", f);
  if (res->scale_from) {
    key_num (f, 2, "load_scale", res->load_scale);
    fputs ("  load_scale_from: ", f);
    quoted (f, res->scale_from);
    fputc ('\n', f);
  } else fputs ("  load_scale: null\n  load_scale_from: null\n", f);
  fprintf (f, "  grounded_springs: %d\n", res->nsprings);
  fprintf (f, "  analyses: %d\n  factorizations: %d\n", res->analyses, res->factorizations);
  fputs ("  tangent: ", f);
  quoted (f, static_report_nonconservative (mdl) ? "non-symmetric (non-conservative loads: "
          "follower forces or body-fixed torques)" : "symmetric");
  fputc ('\n', f);
  if (!res->converged)  /* not an equilibrium: no verdict */
    fputs ("  unstable_directions: null\n  equilibrium: null\n", f);
  else if (res->unstable >= 0)
    fprintf (f, "  unstable_directions: %d\n  equilibrium: %s\n  linearization: %s\n",
             res->unstable, res->unstable > 0 ? "unstable" : "stable",
             res->verdict_damped ? "damped" : "undamped");
  else {
    fputs ("  unstable_directions: null\n  equilibrium: unknown\n  verdict_note: ", f);
    quoted (f, res->verdict_note);
    fputc ('\n', f);
  }
  key_num (f, 2, "time", res->time);
}

/* The iteration history: one flow mapping per iteration (phase 1, MKEAM: time step and
   kinetic energy; else the Newton step). */
static void put_history (FILE *f, const statics_result *res)
{
  fprintf (f, "history:%s\n", res->nhist ? "" : " []");
  for (int i = 0; i < res->nhist; i++) {
    const statics_iter *it = &res->hist[i];
    fprintf (f, "  - {line: %d, phase: %s, imbalance: ", i, phase_name (it->phase));
    num (f, it->imbalance);
    fputs (", constraint: ", f);
    num (f, it->constraint);
    fputs (", change: ", f);
    num (f, it->change);
    fputs (it->phase == 1 ? ", time_step: " : ", step: ", f);
    num (f, it->step);
    if (it->phase == 1) fputs (", kinetic_energy: ", f), num (f, it->energy);
    fputs (", time: ", f);
    num (f, it->time);
    fputs ("}\n", f);
  }
}

/* The whole report to f; head (nnodes) and next (naliases): put_nodes's work arrays.
   Blocks: put_static_settings, put_convergence, put_history, nodes, joints, springs. */
static void put_report (FILE *f, const model *mdl, const model_state *s,
                        const statics_opts *par, const statics_result *res,
                        const char *deck_path, const char *title, int *head, int *next)
{
  put_static_settings (f, mdl, par, deck_path, title);
  put_convergence (f, mdl, par, res);
  put_history (f, res);
  put_nodes (f, mdl, s, head, next);
  put_joints (f, mdl, s);
  put_springs (f, mdl, s);
}

int static_report_write (const char *path, const model *mdl, const model_state *s,
                         const statics_opts *par, const statics_result *res,
                         const char *deck_path, const char *title, mb_err *err)
{
  int *head = mb_calloc ((size_t) mdl->nnodes + 1, sizeof *head);
  int *next = mb_calloc ((size_t) mdl->naliases + 1, sizeof *next);
  if (!head || !next || mb_fault ("report")) {
    free (head), free (next);
    return mb_fail (err, MB_ENOMEM, "out of memory for the report");
  }
  writer w;
  int rc = writer_open (&w, path, "the static report", err);
  if (rc == 0) {
    put_report (w.f, mdl, s, par, res, deck_path, title, head, next);
    rc = writer_commit (&w, err);
  }
  free (head), free (next);
  return rc;
}

int static_report_nonconservative (const model *mdl)
{
  for (int i = 0; i < mdl->nforces; i++) {
    const model_force *fc = &mdl->forces[i];
    if ((fc->type == FORCE_POINT || fc->type == FORCE_TORQUE) && fc->body_fixed
        && (fc->value[0] != 0 || fc->value[1] != 0 || fc->value[2] != 0))
      return 1;
  }
  return 0;
}
