/* test_sweep_track.c: modes matched to tracks by MAC (src/sweep_track.c): a crossing
   through an exactly repeated eigenvalue keeps both identities (the subspace MAC and the
   projected reference), the mass inner product, a lost track, and a change of size. The
   expected tracks and MACs are worked by hand from the vectors given. */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "sweep_track.h"

/* One step of nm modes of size n (vectors column by column in x) into the tracker. */
static int step (tracker *t, int n, int nm, const double *lam, const double *xr,
                 const spm *M, int *trk, double *mac, int *newt, int *lost, int *nlost)
{
  double complex l[8], x[64];
  int rigid[8] = { 0 };
  for (int i = 0; i < nm; i++) l[i] = lam[i];
  for (int k = 0; k < n * nm; k++) x[k] = xr[k];
  track_modes md = { .n = n, .nmodes = nm, .lambda = l, .rigid = rigid, .x = x };
  track_step ts = { .track = trk, .mac = mac, .newt = newt, .lost = lost };
  int rc = tracker_step (t, &md, M, &ts);
  *nlost = ts.nlost;
  return rc;
}

int main (void)
{
  tracker t;
  memset (&t, 0, sizeof t);
  t.mac_min = 0.5;
  int trk[8], newt[8], lost[8], nlost;
  double mac[8];
  const double r = sqrt (0.5);

  /* 1. a crossing: mode "a" = e1 (lambda 1 -> 2 -> 3), mode "b" = e2 (lambda 2 always) */
  double l1[2] = { 1, 2 }, x1[4] = { 1, 0, 0, 1 };
  CHECK ("step 1", step (&t, 2, 2, l1, x1, NULL, trk, mac, newt, lost, &nlost) == 0);
  CHECK ("step 1: two new tracks", newt[0] && newt[1] && trk[0] == 1 && trk[1] == 2);
  /* the repeated eigenvalue: its vectors are a rotated basis, MAC 0.5 each to e1 and e2 */
  double l2[2] = { 2, 2 }, x2[4] = { r, r, r, -r };
  step (&t, 2, 2, l2, x2, NULL, trk, mac, newt, lost, &nlost);
  CHECK ("step 2: both tracks kept by the subspace MAC 1",
         trk[0] != trk[1] && !newt[0] && !newt[1] && fabs (mac[0] - 1) < 1e-12
         && fabs (mac[1] - 1) < 1e-12 && nlost == 0);
  /* past the crossing: sorted, "b" (e2) comes first now */
  double l3[2] = { 2, 3 }, x3[4] = { 0, 1, 1, 0 };
  step (&t, 2, 2, l3, x3, NULL, trk, mac, newt, lost, &nlost);
  CHECK ("step 3: e2 is track 2, e1 track 1 (identities through the crossing)",
         trk[0] == 2 && trk[1] == 1);
  CHECK ("step 3: MAC 1 to the projected references",
         fabs (mac[0] - 1) < 1e-12 && fabs (mac[1] - 1) < 1e-12);

  /* 2. the mass inner product, M = diag(1, 4): MAC((1,1), (1,0)) = 1 / (5 * 1) = 0.2,
     MAC((1,1), (0,1)) = 16 / (5 * 4) = 0.8 */
  spm *M = spm_create (2, 2, 2);
  spm_add (M, 0, 0, 1);
  spm_add (M, 1, 1, 4);
  spm_compress (M);
  tracker u;
  memset (&u, 0, sizeof u);
  u.mac_min = 0.1;
  double m1[1] = { 1 }, y1[2] = { 1, 1 }, y2[2] = { 0, 1 }, y3[2] = { 1, 0 };
  step (&u, 2, 1, m1, y1, M, trk, mac, newt, lost, &nlost);
  step (&u, 2, 1, m1, y2, M, trk, mac, newt, lost, &nlost);
  CHECK ("M-weighted MAC 0.8", trk[0] == 1 && fabs (mac[0] - 0.8) < 1e-12);
  tracker_clear (&u);
  u.mac_min = 0.1;
  step (&u, 2, 1, m1, y1, M, trk, mac, newt, lost, &nlost);
  step (&u, 2, 1, m1, y3, M, trk, mac, newt, lost, &nlost);
  CHECK ("M-weighted MAC 0.2", trk[0] == 1 && fabs (mac[0] - 0.2) < 1e-12);
  /* 3. below mac_min: the track is lost and the mode starts a new one */
  u.mac_min = 0.5;
  step (&u, 2, 1, m1, y1, M, trk, mac, newt, lost, &nlost);
  CHECK ("MAC 0.2 < 0.5: track 1 lost, mode on new track 2",
         nlost == 1 && lost[0] == 1 && newt[0] == 1 && trk[0] == 2 && mac[0] == -1);
  /* 4. another size: every track is lost */
  double z[3] = { 1, 0, 0 };
  step (&u, 3, 1, m1, z, NULL, trk, mac, newt, lost, &nlost);
  CHECK ("another n: track 2 lost, a new track 3", nlost == 1 && lost[0] == 2 && trk[0] == 3);
  tracker_clear (&u);
  tracker_clear (&t);
  spm_free (M);
  return CHECK_DONE ();
}
