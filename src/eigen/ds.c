/* ds.c: the projected problem of Krylov-Schur (SLEPc's DS): ds_impl.h instantiated for
   double (_r, real Schur form with 2x2 blocks) and double complex (_c). */
#include "ds.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"

#define DS_SCALAR double
#define DS_NAME(f) f##_r
#define DS_REAL 1
#include "ds_impl.h"
#undef DS_SCALAR
#undef DS_NAME
#undef DS_REAL

#define DS_SCALAR double complex
#define DS_NAME(f) f##_c
#define DS_REAL 0
#include "ds_impl.h"
#undef DS_SCALAR
#undef DS_NAME
#undef DS_REAL
