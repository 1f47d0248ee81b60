/* plot.c: `mbmodal plot`: finds scripts/mbmodal_plot.py beside the binary and runs it with
   python3 (matplotlib draws the PNG). */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define PLOT_SCRIPT "mbmodal_plot.py"
#define SCRIPT_MAX (PATH_MAX + 64)  /* the binary's folder and the script's place in it */
#define PLOT_NEEDS "python3 with matplotlib and yaml (Debian: apt-get install python3 " \
                   "python3-matplotlib python3-yaml; scripts/install-deps.sh does it)"

/* The folder of the running binary into dir (PATH_MAX): /proc/self/exe, else argv0 when
   it holds a '/' (a path, relative to the current folder or absolute). Returns 0, or -1
   when neither gives one. */
static int exe_dir (const char *argv0, char *dir)
{
  ssize_t n = readlink ("/proc/self/exe", dir, PATH_MAX - 1);
  if (n > 0) dir[n] = '\0';
  else if (argv0 && strchr (argv0, '/') && strlen (argv0) < PATH_MAX)
    memcpy (dir, argv0, strlen (argv0) + 1);
  else return -1;
  char *slash = strrchr (dir, '/');
  if (!slash) return -1;
  if (slash == dir) slash[1] = '\0';
  else *slash = '\0';
  return 0;
}

/* The plot script into path (SCRIPT_MAX): DIR/scripts/ (the build tree: the binary in the
   repository's root), DIR/../scripts/ (a binary in a build folder of the repository, e.g.
   build-san/) or DIR/../share/mbmodal/ (an installed binary in PREFIX/bin). Returns 0, or
   -1 when none is readable (path holds the first tried). */
static int find_script (const char *dir, char *path)
{
  static const char *const places[] = { "%s/scripts/%s", "%s/../scripts/%s",
                                        "%s/../share/mbmodal/%s" };
  char other[SCRIPT_MAX];
  snprintf (path, SCRIPT_MAX, places[0], dir, PLOT_SCRIPT);
  for (int i = 0; i < 3; i++) {
    snprintf (other, sizeof other, places[i], dir, PLOT_SCRIPT);
    if (access (other, R_OK) == 0) {
      memcpy (path, other, strlen (other) + 1);
      return 0;
    }
  }
  return -1;
}

int plot_main (int argc, char **argv, const char *argv0)
{
  char dir[PATH_MAX], script[SCRIPT_MAX];
  if (exe_dir (argv0, dir) < 0) {
    fprintf (stderr, "mbmodal: error: plot: cannot tell where the mbmodal binary is (no "
             "/proc/self/exe), so cannot find scripts/%s; run python3 on it directly\n",
             PLOT_SCRIPT);
    return 1;
  }
  if (find_script (dir, script) < 0) {
    fprintf (stderr, "mbmodal: error: plot: the plot script %s is missing (it ships in the "
             "repository's scripts/ beside the binary)\n", script);
    return 1;
  }
  /* python3 SCRIPT ARGS...: argv[1 ..] after "plot" */
  char **args = calloc ((size_t) argc + 2, sizeof *args);
  if (!args) {
    fprintf (stderr, "mbmodal: error: plot: out of memory\n");
    return 7;
  }
  args[0] = "python3";
  args[1] = script;
  for (int i = 1; i < argc; i++) args[i + 1] = argv[i];
  args[argc + 1] = NULL;
  fflush (stdout);
  if (access ("/usr/bin/python3", X_OK) == 0) execv ("/usr/bin/python3", args);
  execvp ("python3", args);
  fprintf (stderr, "mbmodal: error: plot needs %s: cannot run python3: %s\n", PLOT_NEEDS,
           strerror (errno));
  free (args);
  return 1;
}

int plot_png (const char *report, const char *png, char *why, size_t len)
{
  char dir[PATH_MAX], script[SCRIPT_MAX];
  if (exe_dir (NULL, dir) < 0 || find_script (dir, script) < 0) {
    snprintf (why, len, "the plot script scripts/%s is not beside the binary", PLOT_SCRIPT);
    return 1;
  }
  char *args[] = { "python3", script, "-o", (char *) png, (char *) report, NULL };
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init (&fa) != 0) {
    snprintf (why, len, "out of memory");
    return 1;
  }
  posix_spawn_file_actions_addopen (&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen (&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int rc = access ("/usr/bin/python3", X_OK) == 0
           ? posix_spawn (&pid, "/usr/bin/python3", &fa, NULL, args, environ)
           : posix_spawnp (&pid, "python3", &fa, NULL, args, environ);
  posix_spawn_file_actions_destroy (&fa);
  if (rc != 0) {
    snprintf (why, len, "cannot run python3 (%s)", strerror (rc));
    return 1;
  }
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR) {
      snprintf (why, len, "lost the plot process (%s)", strerror (errno));
      return 1;
    }
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0) return 0;
  if (WIFEXITED (status) && WEXITSTATUS (status) == 1)
    snprintf (why, len, "it needs %s", PLOT_NEEDS);
  else if (WIFEXITED (status))
    snprintf (why, len, "the plot script ended with status %d", WEXITSTATUS (status));
  else snprintf (why, len, "the plot script was stopped by a signal");
  return 1;
}
