/*
 * The Linux process table from procfs: /proc/<pid>/stat (split at the LAST `)`, since a
 * name may hold spaces and parentheses), status (Uid, VmRSS), cmdline and exe, with CPU
 * time read twice sample_ms apart inside the call.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "linux_util.h"

/* PF_KTHREAD in the stat flags field: a kernel thread, which has no command line. */
#define WISP_PF_KTHREAD 0x00200000u

typedef struct proc_row {
  int pid;
  int ppid;
  long uid;
  char state;
  long threads;
  long long rss_bytes;
  long long cpu_ticks_1;
  long long cpu_ticks_2; /* -1: ended during the sample */
  unsigned long long start_ticks;
  unsigned flags;
  char name[64];
  int ok; /* pass 1 read its stat */
} proc_row;

typedef struct stat_fields {
  char name[64];
  char state;
  int ppid;
  unsigned flags;
  long long cpu_ticks;
  long threads;
  unsigned long long start_ticks;
} stat_fields;

/* Parses /proc/<pid>/stat; returns 0, or -errno when it cannot be read. */
static int read_stat(int pid, stat_fields *out) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  ssize_t n = wisp_read_file(path, buf, sizeof buf);
  if (n < 0) return (int)n;
  char *open_paren = strchr(buf, '(');
  char *close_paren = strrchr(buf, ')');
  if (open_paren == NULL || close_paren == NULL || close_paren < open_paren) return -EINVAL;
  size_t name_len = (size_t)(close_paren - open_paren - 1);
  if (name_len >= sizeof out->name) name_len = sizeof out->name - 1;
  memcpy(out->name, open_paren + 1, name_len);
  out->name[name_len] = '\0';
  /* Fields after the name, numbered as in proc(5): 3 state, 4 ppid, 9 flags, 14 utime,
     15 stime, 20 num_threads, 22 starttime. */
  char *p = close_paren + 1;
  unsigned long long field[23] = {0};
  char state = '?';
  for (int i = 3; i <= 22; i++) {
    while (*p == ' ') p++;
    if (*p == '\0') return -EINVAL;
    if (i == 3) {
      state = *p;
      while (*p && *p != ' ') p++;
      continue;
    }
    char *end;
    field[i] = strtoull(p, &end, 10);
    if (end == p) {
      /* a negative value (tty_nr, tpgid can be -1): skip the sign and read on */
      if (*p == '-') field[i] = (unsigned long long)strtoll(p, &end, 10);
      if (end == p) return -EINVAL;
    }
    p = end;
  }
  out->state = state;
  out->ppid = (int)field[4];
  out->flags = (unsigned)field[9];
  out->cpu_ticks = (long long)(field[14] + field[15]);
  out->threads = (long)field[20];
  out->start_ticks = field[22];
  return 0;
}

/* Uid (real) and VmRSS from /proc/<pid>/status. */
static void read_status(int pid, long *uid, long long *rss_bytes) {
  char path[64], buf[4096];
  snprintf(path, sizeof path, "/proc/%d/status", pid);
  *uid = -1;
  *rss_bytes = 0;
  if (wisp_read_file(path, buf, sizeof buf) < 0) return;
  char *line = strstr(buf, "\nUid:");
  if (line != NULL) *uid = strtol(line + 5, NULL, 10);
  line = strstr(buf, "\nVmRSS:");
  if (line != NULL) *rss_bytes = strtoll(line + 7, NULL, 10) * 1024;
}

typedef struct uid_name {
  long uid;
  char name[64];
} uid_name;

/* getpwuid_r with a small cache: a box has few distinct users. */
static const char *user_name(long uid, uid_name *cache, int *cached) {
  for (int i = 0; i < *cached; i++)
    if (cache[i].uid == uid) return cache[i].name;
  if (*cached >= 64) return "";
  uid_name *slot = &cache[(*cached)++];
  slot->uid = uid;
  slot->name[0] = '\0';
  struct passwd pw, *found = NULL;
  char buf[2048];
  if (uid >= 0 && getpwuid_r((uid_t)uid, &pw, buf, sizeof buf, &found) == 0 && found != NULL) {
    snprintf(slot->name, sizeof slot->name, "%s", found->pw_name);
  }
  return slot->name;
}

static long long boot_time_s(void) {
  char buf[8192];
  if (wisp_read_file("/proc/stat", buf, sizeof buf) < 0) return 0;
  char *line = strstr(buf, "\nbtime ");
  return line ? strtoll(line + 7, NULL, 10) : 0;
}

/* Lists the pids in /proc; returns the count, or -errno. */
static int list_pids(int **out) {
  DIR *dir = opendir("/proc");
  if (dir == NULL) return -errno;
  int cap = 512, n = 0;
  int *pids = malloc((size_t)cap * sizeof *pids);
  if (pids == NULL) {
    closedir(dir);
    return -ENOMEM;
  }
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    if (!wisp_is_pid_name(e->d_name)) continue;
    if (n == cap) {
      cap *= 2;
      int *grown = realloc(pids, (size_t)cap * sizeof *pids);
      if (grown == NULL) {
        free(pids);
        closedir(dir);
        return -ENOMEM;
      }
      pids = grown;
    }
    pids[n++] = atoi(e->d_name);
  }
  closedir(dir);
  *out = pids;
  return n;
}

/* The command line: NUL-separated argv joined with spaces; argv[0]'s basename apart. */
static void put_cmdline_fields(wisp_buf *b, int pid, unsigned *flags) {
  char path[64], buf[4096];
  snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
  ssize_t n = wisp_read_file(path, buf, sizeof buf);
  if (n < 0) {
    *flags |= 4;
    wisp_buf_putc(b, '\t'); /* argv0 and cmdline both empty */
    return;
  }
  while (n > 0 && buf[n - 1] == '\0') n--;
  size_t argv0_len = strnlen(buf, (size_t)n);
  size_t base_len;
  const char *base = wisp_basename_n(buf, argv0_len, &base_len);
  /* Some programs rewrite argv into one space-separated string ("nginx: worker"). */
  wisp_buf_put_escaped(b, base, base_len);
  wisp_buf_putc(b, '\t');
  for (ssize_t i = 0; i < n; i++)
    if (buf[i] == '\0') buf[i] = ' ';
  wisp_buf_put_escaped(b, buf, (size_t)n);
}

static void put_exe_base(wisp_buf *b, int pid, unsigned *flags) {
  char path[64], target[4096];
  snprintf(path, sizeof path, "/proc/%d/exe", pid);
  ssize_t n = readlink(path, target, sizeof target - 1);
  if (n < 0) {
    *flags |= 2;
    return;
  }
  static const char deleted[] = " (deleted)";
  size_t dl = sizeof deleted - 1;
  if ((size_t)n > dl && memcmp(target + n - dl, deleted, dl) == 0) n -= (ssize_t)dl;
  size_t base_len;
  const char *base = wisp_basename_n(target, (size_t)n, &base_len);
  wisp_buf_put_escaped(b, base, base_len);
}

static wisp_result *processes(int32_t token, int32_t sample_ms) {
  if (sample_ms < 0 || sample_ms > 5000) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "sample_ms must be 0..5000");
  long hz = sysconf(_SC_CLK_TCK);
  if (hz <= 0) hz = 100;
  int64_t tick_ns = 1000000000LL / hz;
  int *pids = NULL;
  int count = list_pids(&pids);
  if (count < 0) return wisp_result_error(WISP_ERR_SYSTEM, -count, "cannot list /proc");
  proc_row *rows = calloc((size_t)(count ? count : 1), sizeof *rows);
  if (rows == NULL) {
    free(pids);
    return wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
  }

  /* Pass 1: stat only, so that the CPU interval is measured between two quick passes. */
  int denied = 0, vanished = 0;
  int64_t t1 = wisp_now_ns();
  for (int i = 0; i < count; i++) {
    stat_fields s;
    int rc = read_stat(pids[i], &s);
    rows[i].pid = pids[i];
    if (rc != 0) {
      if (rc == -EACCES || rc == -EPERM) denied++;
      else vanished++;
      continue;
    }
    rows[i].ok = 1;
    rows[i].ppid = s.ppid;
    rows[i].state = s.state;
    rows[i].threads = s.threads;
    rows[i].cpu_ticks_1 = s.cpu_ticks;
    rows[i].start_ticks = s.start_ticks;
    rows[i].flags = s.flags;
    memcpy(rows[i].name, s.name, sizeof rows[i].name);
  }
  free(pids);

  /* The rest is read while the sample interval runs. */
  wisp_buf b = {0};
  long long btime = boot_time_s();
  uid_name cache[64];
  int cached = 0;
  int seen = 0;
  wisp_buf body = {0};
  for (int i = 0; i < count; i++) {
    proc_row *r = &rows[i];
    if (!r->ok) continue;
    if (wisp_cancelled(token)) break;
    read_status(r->pid, &r->uid, &r->rss_bytes);
  }
  if (wisp_sleep_cancellable(token, sample_ms - (wisp_now_ns() - t1) / 1000000)) {
    free(rows);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }

  /* Pass 2: CPU time again. A changed start time means the pid was reused. */
  int64_t t2 = wisp_now_ns();
  for (int i = 0; i < count; i++) {
    proc_row *r = &rows[i];
    if (!r->ok) continue;
    stat_fields s;
    r->cpu_ticks_2 = (read_stat(r->pid, &s) == 0 && s.start_ticks == r->start_ticks) ? s.cpu_ticks : -1;
  }

  for (int i = 0; i < count; i++) {
    proc_row *r = &rows[i];
    if (!r->ok) continue;
    if (wisp_cancelled(token)) break;
    seen++;
    unsigned flags = 0;
    int kernel = (r->flags & WISP_PF_KTHREAD) != 0;
    long long start = btime + (long long)(r->start_ticks / (unsigned long long)hz);
    long long cpu2 = r->cpu_ticks_2 < 0 ? -1 : r->cpu_ticks_2 * tick_ns;
    wisp_buf_printf(&body, "P\t%d\t%d\t%ld\t", r->pid, r->ppid, r->uid);
    const char *user = user_name(r->uid, cache, &cached);
    wisp_buf_put_escaped(&body, user, strlen(user));
    wisp_buf_printf(&body, "\t%c\t%ld\t%lld\t%lld\t%lld\t%lld\t", r->state, r->threads, r->rss_bytes,
                    r->cpu_ticks_1 * tick_ns, cpu2, start);
    /* Flags are known only after exe and cmdline are read: write them into a side buffer. */
    wisp_buf rest = {0};
    wisp_buf_put_escaped(&rest, r->name, strlen(r->name));
    wisp_buf_putc(&rest, '\t');
    if (!kernel) put_exe_base(&rest, r->pid, &flags);
    wisp_buf_putc(&rest, '\t');
    if (kernel) wisp_buf_puts(&rest, "\t");
    else put_cmdline_fields(&rest, r->pid, &flags);
    if (kernel) wisp_buf_putc(&body, 'k');
    if (flags & 2) wisp_buf_putc(&body, 'e');
    if (flags & 4) wisp_buf_putc(&body, 'c');
    wisp_buf_putc(&body, '\t');
    wisp_buf_put(&body, rest.data, rest.len);
    if (rest.failed) body.failed = 1;
    wisp_buf_free(&rest);
    wisp_buf_putc(&body, '\n');
  }
  free(rows);
  if (wisp_cancelled(token)) {
    wisp_buf_free(&body);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }
  wisp_buf_printf(&b, "H\t%lld\t%lld\t%lld\t%ld\t%d\t%d\t%d\n", (long long)tick_ns, (long long)(t2 - t1),
                  (long long)time(NULL), (long)getuid(), seen, denied, vanished);
  wisp_buf_put(&b, body.data, body.len);
  if (body.failed) b.failed = 1;
  wisp_buf_free(&body);
  return wisp_result_from(&b);
}

typedef struct processes_args {
  int32_t token, sample_ms;
} processes_args;

static wisp_result *processes_job(void *p) {
  processes_args *a = p;
  return processes(a->token, a->sample_ms);
}

wisp_result *wisp_processes(int32_t token, int32_t sample_ms) {
  processes_args a = {token, sample_ms};
  return wisp_run_on_thread(processes_job, &a);
}
