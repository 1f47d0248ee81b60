/* vec3.h: small 3D vector and 3 x 3 matrix helpers (row-major) of src/model, apart from
   the element declarations (elements.h) so that state.c uses them without elements.h.
   Private to src/model. */
#ifndef MB_VEC3_H
#define MB_VEC3_H

#include <math.h>

static inline double vec_dot (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double vec_norm (const double a[3])
{
  return sqrt (vec_dot (a, a));
}

/* c = a x b (c may not alias a or b) */
static inline void vec_cross (const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* c = a - b */
static inline void vec_sub (const double a[3], const double b[3], double c[3])
{
  for (int i = 0; i < 3; i++) c[i] = a[i] - b[i];
}

/* S = skew(a): S b = a x b */
static inline void mat_skew (const double a[3], double S[9])
{
  S[0] = 0;     S[1] = -a[2]; S[2] = a[1];
  S[3] = a[2];  S[4] = 0;     S[5] = -a[0];
  S[6] = -a[1]; S[7] = a[0];  S[8] = 0;
}

/* C = A B (3 x 3; C may not alias) */
static inline void mat_mul (const double A[9], const double B[9], double C[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* y = A x (3 x 3) */
static inline void mat_vec (const double A[9], const double x[3], double y[3])
{
  for (int i = 0; i < 3; i++) y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}

/* C = A^T (3 x 3; C may not alias) */
static inline void mat_transpose (const double A[9], double C[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) C[3 * i + j] = A[3 * j + i];
}

/* y = A^T x (3 x 3) */
static inline void mat_tvec (const double A[9], const double x[3], double y[3])
{
  for (int i = 0; i < 3; i++) y[i] = A[i] * x[0] + A[3 + i] * x[1] + A[6 + i] * x[2];
}

#endif
