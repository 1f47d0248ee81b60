/* test_deck_frf.c: the frf section of a deck (src/deck/deck_frf.c): values, defaults and
   errors at their positions (columns counted with Python str.index on the same text); and
   frf_value on a hand-made one-mode system (closed form). */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "deck/deck.h"
#include "frf/frf.h"

static const char model_head[] =
  "units: SI\n"
  "bodies:\n"
  "  b: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\n";

/* parses head + text; returns the status, *d filled (caller clears) */
static int parse (const char *head, const char *text, deck *d, mb_err *e)
{
  char buf[4096];
  snprintf (buf, sizeof buf, "%s%s", head, text);
  mb_err_init (e);
  return deck_parse (buf, strlen (buf), "t.yaml", d, e);
}

static void test_values (void)
{
  deck d;
  mb_err e;
  int rc = parse (model_head,
                  "frf:\n"
                  "  inputs: [{node: b, direction: [0, 3, 4], type: torque}, {node: b,"
                  " direction: [1, 0, 0]}]\n"
                  "  outputs: [{name: w, node: b, direction: [0, 0, 2], rotation: true,"
                  " quantity: velocity}]\n"
                  "  frequencies: {min: 1, max: 100, count: 50, spacing: linear}\n"
                  "  damping: [0.01, 0.02]\n"
                  "  state_space: ss\n"
                  "  state_space_model: full\n", &d, &e);
  CHECK ("a full frf section parses", rc == 0);
  if (rc == 0) {
    const deck_frf *f = &d.frf;
    CHECK ("present, 2 inputs, 1 output", f->present && f->ninputs == 2 && f->noutputs == 1);
    CHECK ("direction normalized [0, 0.6, 0.8]", fabs (f->inputs[0].dir[1] - 0.6) < 1e-15
           && fabs (f->inputs[0].dir[2] - 0.8) < 1e-15);
    CHECK ("torque input, force input", f->inputs[0].rotation == 1 && f->inputs[1].rotation == 0);
    CHECK ("default names in1, in2", !strcmp (f->inputs[0].name, "in1")
           && !strcmp (f->inputs[1].name, "in2"));
    CHECK ("output w: rotation, velocity", !strcmp (f->outputs[0].name, "w")
           && f->outputs[0].rotation && f->outputs[0].quantity == FRF_VELOCITY);
    CHECK ("grid", f->fmin == 1 && f->fmax == 100 && f->count == 50 && !f->log_spacing);
    CHECK ("ratios", f->nratios == 2 && f->ratios[1] == 0.02 && !f->complex_modes);
    CHECK ("defaults: static correction on", f->static_correction == 1);
    CHECK ("state space full in ss", f->state_space_full && !strcmp (f->state_space, "ss"));
  }
  deck_clear (&d);
  /* DOF names: dx dy dz give the axis and a force or a translation, rx ry rz a torque or a
     rotation; x y z are the old names of dx dy dz; a type that agrees is allowed */
  rc = parse (model_head,
              "frf:\n"
              "  inputs: [{node: b, direction: rz}, {node: b, direction: dy, type: force},"
              " {node: b, direction: x}]\n"
              "  outputs: [{node: b, direction: rx, quantity: acceleration},"
              " {node: b, direction: dz}, {node: b, direction: ry, rotation: true}]\n"
              "  frequencies: {min: 1, max: 2, count: 2}\n"
              "  damping: 0.01\n", &d, &e);
  CHECK ("DOF names as directions parse", rc == 0);
  if (rc == 0) {
    const deck_frf *f = &d.frf;
    CHECK ("input rz: torque about z", f->inputs[0].rotation == 1 && f->inputs[0].dir[0] == 0
           && f->inputs[0].dir[1] == 0 && f->inputs[0].dir[2] == 1);
    CHECK ("input dy: force along y", f->inputs[1].rotation == 0 && f->inputs[1].dir[1] == 1);
    CHECK ("input x (old name of dx): force along x", f->inputs[2].rotation == 0
           && f->inputs[2].dir[0] == 1 && f->inputs[2].dir[1] == 0);
    CHECK ("output rx: rotation about x", f->outputs[0].rotation == 1
           && f->outputs[0].dir[0] == 1 && f->outputs[0].quantity == FRF_ACCELERATION);
    CHECK ("output dz: translation along z", f->outputs[1].rotation == 0
           && f->outputs[1].dir[2] == 1);
    CHECK ("output ry with rotation: true", f->outputs[2].rotation == 1
           && f->outputs[2].dir[1] == 1);
  }
  deck_clear (&d);
  rc = parse ("matrices: {K: k, M: m, R: r}\n",
              "frf: {inputs: [{dof: 2}], outputs: [{dof: 1}],"
              " frequencies: {min: 1, max: 2, count: 2}, damping: complex}\n", &d, &e);
  CHECK ("a matrix deck's frf by dof, complex modes", rc == 0 && d.frf.complex_modes
         && d.frf.inputs[0].dof == 2 && d.frf.log_spacing && !d.frf.state_space);
  deck_clear (&d);
}

typedef struct bad { const char *head, *text, *where, *msg; } bad;

static void test_bad (void)
{
  static const char mh[] = "matrices: {K: k, M: m}\n";
  const bad bads[] = {
    { model_head, "frf: {inputs: [{dof: 1}], outputs: [{node: b, direction: [1, 0, 0]}],"
      " frequencies: {min: 1, max: 2, count: 2}, damping: 0}\n", "t.yaml:4:22",
      "a model deck names a 'node'" },
    { mh, "frf: {inputs: [{node: a, direction: [1, 0, 0]}], outputs: [{dof: 1}],"
      " frequencies: {min: 1, max: 2, count: 2}, damping: 0}\n", "t.yaml:2:23",
      "a matrix deck names a 'dof'" },
    { mh, "frf: {inputs: [{dof: 1}], outputs: [{dof: 1}],"
      " frequencies: {min: 2, max: 1, count: 2}, damping: 0}\n", "t.yaml:2:75",
      "'max' must be larger than 'min'" },
    { mh, "frf: {inputs: [{dof: 1}], outputs: [{dof: 1}],"
      " frequencies: {min: 1, max: 2, count: 2}, damping: [0.1, 1.5]}\n", "t.yaml:2:104",
      "damping[1]" },
    { mh, "frf: {inputs: [{dof: 1}], outputs: [{dof: 1}],"
      " frequencies: {min: 1, max: 2, count: 2}, damping: lots}\n", "t.yaml:2:98",
      "'damping' must be a number" },
    { mh, "frf: {inputs: [{dof: 1}], outputs: [{dof: 1}],"
      " frequencies: {min: 1, max: 2, count: 2}, damping: complex}\n", "t.yaml:2:1",
      "needs the complex stage" },
    { mh, "frf: {inputs: [], outputs: [{dof: 1}],"
      " frequencies: {min: 1, max: 2, count: 2}, damping: 0}\n", "t.yaml:2:15",
      "'inputs' must be a sequence of 1 to" },
    { model_head, "frf: {inputs: [{node: b, direction: [0, 0, 0]}], outputs: [{node: b,"
      " direction: [1, 0, 0]}], frequencies: {min: 1, max: 2, count: 2}, damping: 0}\n",
      "t.yaml:4:37", "non-zero" },
    { model_head, "frf: {inputs: [{node: b, direction: [1, 0, 0], quantity: velocity}],"
      " outputs: [{node: b, direction: [1, 0, 0]}], frequencies: {min: 1, max: 2, count: 2},"
      " damping: 0}\n", "t.yaml:4:48", "not used" },
    { mh, "frf: {inputs: [{dof: 1}], outputs: [{dof: 1, quantity: jerk}],"
      " frequencies: {min: 1, max: 2, count: 2}, damping: 0}\n", "t.yaml:2:56",
      "displacement, velocity or acceleration" },
    { mh, "frf: {inputs: [{dof: 1}], outputs: [{dof: 1}], damping: 0}\n", "t.yaml:2:6",
      "frequencies" },
    { model_head, "frf: {inputs: [{node: b, direction: rx, type: force}], outputs: [{node: b,"
      " direction: dx}], frequencies: {min: 1, max: 2, count: 2}, damping: 0}\n",
      "t.yaml:4:47", "direction rx is a rotation, but 'type' says a force" },
    { model_head, "frf: {inputs: [{node: b, direction: dx}], outputs: [{node: b,"
      " direction: dy, rotation: true}], frequencies: {min: 1, max: 2, count: 2},"
      " damping: 0}\n", "t.yaml:4:88", "direction dy is a translation, but 'rotation'"
      " says a rotation" },
    { model_head, "frf: {inputs: [{node: b, direction: tx}], outputs: [{node: b,"
      " direction: dy}], frequencies: {min: 1, max: 2, count: 2}, damping: 0}\n",
      "t.yaml:4:37", "a vector [x, y, z] or a DOF name dx, dy, dz, rx, ry, rz (got 'tx')" },
  };
  for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
    deck d;
    mb_err e;
    char descr[96];
    int rc = parse (bads[i].head, bads[i].text, &d, &e);
    snprintf (descr, sizeof descr, "bad frf %zu: MB_EDECK at %s", i, bads[i].where);
    CHECK (descr, rc == MB_EDECK && !strcmp (e.where, bads[i].where)
           && strstr (e.msg, bads[i].msg));
    if (rc != MB_EDECK || strcmp (e.where, bads[i].where) || !strstr (e.msg, bads[i].msg))
      printf ("  got %d %s: %s\n  want %s: ...%s...\n", rc, e.where, e.msg, bads[i].where,
              bads[i].msg);
    deck_clear (&d);
  }
}

/* one mode, omega^2 = 4, zeta = 0.1, c^T phi = 2, phi^T b = 3, H_res = 0.5:
   H = 6 / (4 - w^2 + 0.4 i w) + 0.5, times (i w)^p */
static void test_value (void)
{
  double w2 = 4, zeta = 0.1, phib = 3, cphi = 2, hres = 0.5;
  int q[3] = { FRF_DISPLACEMENT, FRF_VELOCITY, FRF_ACCELERATION };
  frf_data f = { .n = 1, .nin = 1, .nout = 3, .nmodes = 1, .quantity = q, .w2 = &w2,
                 .zeta = &zeta, .phib = &phib, .cphi = (double[3]) { cphi, cphi, cphi },
                 .hres = (double[3]) { hres, hres, hres } };
  double worst = 0;
  for (double w = 0.1; w < 10; w *= 1.7)
    for (int o = 0; o < 3; o++) {
      double complex h = 6.0 / (4 - w * w + 0.4 * I * w) + 0.5;
      for (int p = 0; p < o; p++) h *= I * w;
      double e = cabs (frf_value (&f, o, 0, w) - h) / cabs (h);
      if (e > worst) worst = e;
    }
  CHECK ("frf_value = the closed form of one mode (1e-14)", worst < 1e-14);
}

/* frf_export's refusals, before any file is written: an acceleration from truncated
   complex modes (not proper), and the full model of a constrained system. */
static void test_export_refusals (void)
{
  deck d;
  mb_err e;
  int rc = parse ("matrices: {K: k, M: m, R: r}\n",
                  "frf: {inputs: [{dof: 1}], outputs: [{name: acc, dof: 1, quantity:"
                  " acceleration}], frequencies: {min: 1, max: 2, count: 2}, damping: complex,"
                  " state_space: ss}\n", &d, &e);
  CHECK ("the deck for the refusals parses", rc == 0);
  if (rc != 0) return;
  int q = FRF_ACCELERATION, pair = 1;
  double b = 1, c = 1;
  double complex lam = -1 + 10 * I, u = 0.05 * I, v = 1;
  frf_data f = { .n = 1, .nin = 1, .nout = 1, .nmodes = 1, .complex_modes = 1, .b = &b,
                 .c = &c, .quantity = &q, .lambda = &lam, .pair = &pair, .u = &u, .v = &v };
  mb_err_init (&e);
  rc = frf_export (&f, &d, NULL, NULL, NULL, NULL, "/nonexistent-dir/ss", NULL, &e);
  CHECK ("modal export refuses an acceleration from complex modes, at the output's dof",
         rc == MB_EDECK && !strcmp (e.where, "t.yaml:2:54") && strstr (e.msg, "acc"));
  spm *Cq = spm_create (1, 1, 1);
  spm_add (Cq, 0, 0, 1.0);
  d.frf.state_space_full = 1;
  mb_err_init (&e);
  rc = frf_export (&f, &d, NULL, NULL, NULL, Cq, "/nonexistent-dir/ss", NULL, &e);
  CHECK ("full export refuses a constrained model, at the frf key",
         rc == MB_EDECK && !strcmp (e.where, "t.yaml:2:1")
         && strstr (e.msg, "without constraints"));
  spm_free (Cq);
  deck_clear (&d);
}

int main (void)
{
  test_export_refusals ();
  test_values ();
  test_bad ();
  test_value ();
  return CHECK_DONE ();
}
