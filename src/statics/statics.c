/* statics.c: the static stage's entry: the method the deck asks for, then the stability
   verdict of the state it returns. */
#include "statics.h"

int statics_solve (MPI_Comm comm, const statics_problem *p, const deck_statics *par,
                   FILE *log, statics_result *res, mb_err *err)
{
  int rc = par->method == STATICS_MKEAM ? statics_mkeam (comm, p, par, log, res, err)
         : statics_fim (comm, p, par, par->max_num_iter, 0, log, res, err);
  if (rc != 0 && rc != MB_ENOCONV) return rc;
  if (rc == 0 && par->method == STATICS_MKEAM) return 0;  /* MKEAM judged its rest already */
  mb_err verr;
  mb_err_init (&verr);
  int vrc = statics_verdict (comm, p, rc == 0, res, &verr);  /* 0: converged */
  if (vrc < 0) *err = verr;
  return vrc < 0 ? vrc : rc;
}
