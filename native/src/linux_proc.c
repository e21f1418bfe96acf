/*
 * The Linux process table from procfs: /proc/<pid>/stat (split at the LAST `)`, since a
 * name may hold spaces and parentheses), status (Uid), statm (resident pages), cmdline
 * and exe, with CPU time read twice sample_ms apart inside the call, and the machine's
 * CPU split from /proc/stat at the same two moments.
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

/* Marks written in a P record's flags field. */
#define MARK_EXE_DENIED 1u
#define MARK_CMDLINE_DENIED 2u
#define MARK_CMDLINE_CUT 4u

typedef struct proc_row {
  int pid;
  int ppid;
  long uid;
  char state;
  long threads;
  long long rss_bytes;
  long long cpu_ticks_1;
  long long cpu_ticks_2; /* -1: ended during the sample, or the pid was reused */
  unsigned long long start_ticks;
  unsigned kflags; /* the kernel's flags from stat */
  unsigned marks;
  char name[64];
  wisp_buf text; /* escaped name, exe basename, argv0 basename, cmdline: tab-separated */
  int ok;        /* pass 1 read its stat */
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

/* The real uid from /proc/<pid>/status: its line comes before Groups, however long that is. */
static long read_uid(int pid) {
  char path[64], buf[2048];
  snprintf(path, sizeof path, "/proc/%d/status", pid);
  if (wisp_read_file(path, buf, sizeof buf) < 0) return -1;
  char *line = strstr(buf, "\nUid:");
  return line != NULL ? strtol(line + 5, NULL, 10) : -1;
}

/* Resident size from /proc/<pid>/statm (pages): short and fixed, unlike status. */
static long long read_rss(int pid, long page) {
  char path[64], buf[256];
  snprintf(path, sizeof path, "/proc/%d/statm", pid);
  if (wisp_read_file(path, buf, sizeof buf) < 0) return 0;
  char *p = buf;
  strtoull(p, &p, 10); /* size */
  return (long long)strtoull(p, NULL, 10) * page;
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

/* The machine's CPU time by kind (the `cpu` line of /proc/stat), and the boot time. */
typedef struct machine_cpu {
  long long kind[8]; /* user nice system idle iowait irq softirq steal */
  int ok;
} machine_cpu;

/*
 * /proc/stat is read whole: on a machine with many CPUs the per-CPU lines and the
 * interrupt counts run far past any fixed buffer, and btime comes after them.
 */
static void read_proc_stat(wisp_buf *scratch, machine_cpu *cpu, long long *btime) {
  int more;
  cpu->ok = 0;
  if (wisp_read_whole("/proc/stat", scratch, 1u << 24, &more) <= 0) return;
  wisp_buf_putc(scratch, '\0');
  if (scratch->failed) return;
  const char *text = scratch->data;
  if (strncmp(text, "cpu ", 4) == 0) {
    const char *p = text + 4;
    for (int i = 0; i < 8; i++) {
      char *end;
      cpu->kind[i] = strtoll(p, &end, 10);
      if (end == p) cpu->kind[i] = 0; /* an old kernel without steal */
      p = end;
    }
    cpu->ok = 1;
  }
  if (btime != NULL) {
    const char *line = strstr(text, "\nbtime ");
    *btime = line ? strtoll(line + 7, NULL, 10) : 0;
  }
}

static void put_machine_cpu(wisp_buf *b, int sample, const machine_cpu *cpu) {
  if (!cpu->ok) return;
  wisp_buf_printf(b, "C\t%d", sample);
  for (int i = 0; i < 8; i++) wisp_buf_printf(b, "\t%lld", cpu->kind[i]);
  wisp_buf_putc(b, '\n');
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

/*
 * argv[0]'s basename, a tab, then the arguments joined with spaces. Only whole
 * arguments: when the command line is longer than WISP_CMDLINE_MAX, the argument that
 * crosses the limit and all after it are left out and the row is marked, so what is
 * redacted later is never a secret cut in two.
 */
static void put_cmdline_fields(wisp_buf *b, wisp_buf *scratch, int pid, unsigned *marks) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
  int more;
  ssize_t got = wisp_read_whole(path, scratch, WISP_CMDLINE_MAX, &more);
  if (got < 0) {
    if (got == -EACCES || got == -EPERM) *marks |= MARK_CMDLINE_DENIED;
    wisp_buf_putc(b, '\t'); /* argv0 and cmdline both empty */
    return;
  }
  char *buf = scratch->data;
  size_t n = (size_t)got;
  if (more) {
    while (n > 0 && buf[n - 1] != '\0') n--;
    *marks |= MARK_CMDLINE_CUT;
  }
  while (n > 0 && buf[n - 1] == '\0') n--;
  size_t argv0_len = strnlen(buf, n);
  size_t base_len;
  const char *base = wisp_basename_n(buf, argv0_len, &base_len);
  /* Some programs rewrite argv into one space-separated string ("nginx: worker"). */
  wisp_buf_put_escaped(b, base, base_len);
  wisp_buf_putc(b, '\t');
  for (size_t i = 0; i < n; i++)
    if (buf[i] == '\0') buf[i] = ' ';
  wisp_buf_put_escaped(b, buf, n);
}

static void put_exe_base(wisp_buf *b, int pid, unsigned *marks) {
  char path[64], target[4096];
  snprintf(path, sizeof path, "/proc/%d/exe", pid);
  ssize_t n = readlink(path, target, sizeof target - 1);
  if (n < 0) {
    /* ENOENT is a zombie or a process gone: nothing hidden, nothing to say. */
    if (errno == EACCES || errno == EPERM) *marks |= MARK_EXE_DENIED;
    return;
  }
  static const char deleted[] = " (deleted)";
  size_t dl = sizeof deleted - 1;
  if ((size_t)n > dl && memcmp(target + n - dl, deleted, dl) == 0) n -= (ssize_t)dl;
  size_t base_len;
  const char *base = wisp_basename_n(target, (size_t)n, &base_len);
  wisp_buf_put_escaped(b, base, base_len);
}

/* What is read while the sample interval runs: owner, memory, names and command line. */
static void read_details(proc_row *r, wisp_buf *scratch, long page) {
  r->uid = read_uid(r->pid);
  r->rss_bytes = read_rss(r->pid, page);
  int kernel = (r->kflags & WISP_PF_KTHREAD) != 0;
  wisp_buf_put_escaped(&r->text, r->name, strlen(r->name));
  wisp_buf_putc(&r->text, '\t');
  if (!kernel) put_exe_base(&r->text, r->pid, &r->marks);
  wisp_buf_putc(&r->text, '\t');
  if (kernel) wisp_buf_putc(&r->text, '\t');
  else put_cmdline_fields(&r->text, scratch, r->pid, &r->marks);
}

static void free_rows(proc_row *rows, int count) {
  for (int i = 0; i < count; i++) wisp_buf_free(&rows[i].text);
  free(rows);
}

static wisp_result *processes(int32_t token, int32_t sample_ms) {
  if (sample_ms < 0 || sample_ms > 5000) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "sample_ms must be 0..5000");
  long hz = sysconf(_SC_CLK_TCK);
  if (hz <= 0) hz = 100;
  long page = sysconf(_SC_PAGESIZE);
  if (page <= 0) page = 4096;
  int64_t tick_ns = 1000000000LL / hz;
  int *pids = NULL;
  int count = list_pids(&pids);
  if (count < 0) return wisp_result_error(WISP_ERR_SYSTEM, -count, "cannot list /proc");
  proc_row *rows = calloc((size_t)(count ? count : 1), sizeof *rows);
  if (rows == NULL) {
    free(pids);
    return wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
  }
  wisp_buf scratch = {0};
  machine_cpu cpu1, cpu2;
  long long btime = 0;

  /* Pass 1: stat only, so that the CPU interval is measured between two quick passes. */
  int denied = 0, vanished = 0;
  int64_t t1 = wisp_now_ns();
  read_proc_stat(&scratch, &cpu1, &btime);
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
    rows[i].kflags = s.flags;
    memcpy(rows[i].name, s.name, sizeof rows[i].name);
  }
  free(pids);

  /* The rest is read while the sample interval runs, so a process that ends before the
     second pass still has its command line. */
  for (int i = 0; i < count; i++) {
    if (!rows[i].ok) continue;
    if (wisp_cancelled(token)) break;
    read_details(&rows[i], &scratch, page);
  }
  if (wisp_sleep_cancellable(token, sample_ms - (wisp_now_ns() - t1) / 1000000)) {
    wisp_buf_free(&scratch);
    free_rows(rows, count);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }

  /* Pass 2: CPU time again. A changed start time means the pid was reused. */
  int64_t t2 = wisp_now_ns();
  read_proc_stat(&scratch, &cpu2, NULL);
  for (int i = 0; i < count; i++) {
    proc_row *r = &rows[i];
    if (!r->ok) continue;
    stat_fields s;
    r->cpu_ticks_2 = (read_stat(r->pid, &s) == 0 && s.start_ticks == r->start_ticks) ? s.cpu_ticks : -1;
  }
  wisp_buf_free(&scratch);

  uid_name cache[64];
  int cached = 0;
  int seen = 0;
  wisp_buf body = {0};
  for (int i = 0; i < count; i++) {
    proc_row *r = &rows[i];
    if (!r->ok) continue;
    seen++;
    long long start = btime + (long long)(r->start_ticks / (unsigned long long)hz);
    long long cpu2 = r->cpu_ticks_2 < 0 ? -1 : r->cpu_ticks_2 * tick_ns;
    wisp_buf_printf(&body, "P\t%d\t%d\t%ld\t", r->pid, r->ppid, r->uid);
    const char *user = user_name(r->uid, cache, &cached);
    wisp_buf_put_escaped(&body, user, strlen(user));
    wisp_buf_printf(&body, "\t%c\t%ld\t%lld\t%lld\t%lld\t%lld\t", r->state, r->threads, r->rss_bytes,
                    r->cpu_ticks_1 * tick_ns, cpu2, start);
    if (r->kflags & WISP_PF_KTHREAD) wisp_buf_putc(&body, 'k');
    if (r->marks & MARK_EXE_DENIED) wisp_buf_putc(&body, 'e');
    if (r->marks & MARK_CMDLINE_DENIED) wisp_buf_putc(&body, 'c');
    if (r->marks & MARK_CMDLINE_CUT) wisp_buf_putc(&body, 't');
    wisp_buf_putc(&body, '\t');
    wisp_buf_put(&body, r->text.data, r->text.len);
    if (r->text.failed) body.failed = 1;
    wisp_buf_putc(&body, '\n');
  }
  free_rows(rows, count);
  if (wisp_cancelled(token)) {
    wisp_buf_free(&body);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }
  wisp_buf b = {0};
  wisp_buf_printf(&b, "H\t%lld\t%lld\t%lld\t%ld\t%d\t%d\t%d\n", (long long)tick_ns, (long long)(t2 - t1),
                  (long long)time(NULL), (long)getuid(), seen, denied, vanished);
  put_machine_cpu(&b, 1, &cpu1);
  put_machine_cpu(&b, 2, &cpu2);
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
