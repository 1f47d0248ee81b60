/* plot.h: `mbmodal plot`: hands a report to the Python plotting script beside the binary. */
#ifndef MB_PLOT_H
#define MB_PLOT_H

#include <stddef.h>

/* `mbmodal plot [-o PNG] [--mode N] REPORT.yaml`, argv[0] = "plot". Runs (exec, so that its
   exit status is the command's) python3 on scripts/mbmodal_plot.py, found beside the
   binary's own path (/proc/self/exe, else argv's path via realpath): DIR/scripts/ with the
   binary at DIR/mbmodal (the build tree), DIR/../scripts/ (a build folder such as
   build-san/), or DIR/../share/mbmodal/. Debian's
   /usr/bin/python3 is used when it exists (python3-matplotlib installs there), else python3
   from PATH. Returns only on failure: 1 with a message naming what is missing (the script,
   python3). Called before MPI starts: no MPI. */
int plot_main (int argc, char **argv, const char *argv0);

/* Rank 0 of a run (MPI started): draws the report at path report into png as `mbmodal plot
   -o PNG REPORT` does, in a child process (posix_spawn; its output discarded), and waits
   for it. Returns 0 when the PNG is written, else 1 with why (len bytes) saying what was
   missing or failed (the script, python3 or matplotlib, or the script's exit status). */
int plot_png (const char *report, const char *png, char *why, size_t len);

#endif
