/* sweep_track.h: modes followed from one sweep step to the next by the modal assurance
   criterion (MAC) in the mass inner product, with a subspace MAC within clusters of
   (nearly) repeated eigenvalues. Rank-local; the sweep runs it on rank 0. */
#ifndef MB_SWEEP_TRACK_H
#define MB_SWEEP_TRACK_H

#include <complex.h>

#include "linalg/sparse.h"

/* Eigenvalues closer than this relative distance form one cluster: their vectors are any
   basis of the cluster's space, so a track is matched to the space (subspace MAC). */
#define TRACK_CLUSTER_RTOL 1e-6

/* One step's modes as the tracker takes them (the caller fills and owns the arrays). */
typedef struct track_modes {
  int n;                     /* DOFs of each vector */
  int nmodes;
  const double complex *lambda;  /* eigenvalues (modal omega^2 or complex lambda) */
  const int *rigid;          /* 1: a rigid-body mode (all of them one cluster) */
  const double complex *x;   /* vectors, mode i at x + i n */
} track_modes;

/* One active track: its id and its reference vector (the last step's vector, or within a
   cluster the last reference projected on the cluster's space). Owned by the tracker. */
typedef struct tracker {
  int n;                     /* DOFs; 0 before the first step */
  int ntracks;               /* tracks ever made: ids 1 .. ntracks */
  int nactive;
  int *active;               /* ids of the active tracks */
  double complex *ref;       /* nactive vectors of n */
  int *pcl;                  /* the cluster of each reference at the last step: the
                                index of its first member (its own for a single mode) */
  double mac_min;            /* a best MAC below it: the track is lost */
} tracker;

/* What one step did to each mode and track (arrays of the caller, nmodes and the number
   of tracks active before the step): track[i] the id of mode i (a new id when it matched
   no track), mac[i] its MAC to the previous step (subspace MAC in a cluster; -1 for a new
   track), lost[k] the ids of the tracks that matched no mode (nlost of them). */
typedef struct track_step {
  int *track;
  double *mac;
  int *newt;                 /* 1: mode i starts a track */
  int nlost;
  int *lost;
} track_step;

/* Matches the modes to the active tracks: scores each (track, mode) by the MAC, or, for a
   mode in a cluster, by the subspace MAC of the track on the cluster's space, or, for a
   track in a cluster of the last step, the subspace MAC of the mode on that cluster's
   space (the larger of the two; the individual MAC breaks ties), and takes the best pairs first while the score is at least
   mac_min. The mass inner product u^H M v when M is given (NULL: u^H v). A step with
   another n starts every track anew. Returns 0 or MB_ENOMEM (the tracker unchanged). */
int tracker_step (tracker *t, const track_modes *md, const spm *M, track_step *out);

void tracker_clear (tracker *t);

#endif
