/* statics.c: the static stage's entry: the method its options ask for, then the stability
   verdict of the state it returns. */
#include "statics.h"

int statics_solve (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                   FILE *log, statics_result *res, mb_err *err)
{
  int rc = par->method == STATICS_ALG_MKEAM ? statics_mkeam (comm, p, par, log, res, err)
         : statics_fim (comm, p, par, par->max_num_iter, 0, log, res, err);
  if (rc != 0 && rc != MB_ENOCONV) return rc;
  if (rc == 0 && par->method == STATICS_ALG_MKEAM) return 0;  /* MKEAM judged its rest already */
  mb_err verr;
  mb_err_init (&verr);
  int vrc = statics_verdict (comm, p, rc == 0, res, &verr);  /* 0: converged */
  if (vrc < 0) *err = verr;
  return vrc < 0 ? vrc : rc;
}

const char *statics_alg_name (statics_alg a)
{
  return a == STATICS_ALG_MKEAM ? "mkeam" : "fim";
}
