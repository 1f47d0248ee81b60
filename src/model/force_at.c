/* force_at.c: what a force element carries at a state, for the static report: a
   bushing's force and torque on its nodes (model_bushing_at in state.h). */
#include "elements.h"

/* What bushing fi applies to its nodes at s: fa = -f_int[0..5] on node a, fb =
   -f_int[6..11] on node b, f_int = dV/dq = B^T K6 u of its element (force.c,
   bushing_element; zero at the deck configuration, where u = 0). Outputs caller-owned. */
int model_bushing_at (const model *mdl, const model_state *s, int fi, double fa[6],
                      double fb[6])
{
  const model_force *f = &mdl->forces[fi];
  if (f->type != FORCE_BUSHING) return -1;
  elem e;
  force_element (mdl, s, fi, &e);
  for (int i = 0; i < 6; i++) {
    fa[i] = 0.0 - e.f_int[i];
    fb[i] = 0.0 - e.f_int[6 + i];
  }
  return 0;
}
