/*
 * The macOS process table through libproc: proc_listallpids, proc_pidinfo with
 * PROC_PIDTASKALLINFO (name, parent, uid, resident size, threads, CPU time), proc_pidpath
 * and sysctl(KERN_PROCARGS2) for the arguments; the machine's CPU split from
 * host_statistics(HOST_CPU_LOAD_INFO). CPU times are Mach absolute time units on Apple
 * silicon, converted with the timebase (see timebase()). Without root, proc_pidinfo fails
 * with EPERM for other users' processes: they are counted as denied, not listed.
 *
 * Written against Apple's documented API (libproc.h, sys/proc_info.h, sysctl(3)); built
 * only on macOS, and not built or run in this repository's Linux CI.
 */
#include <errno.h>
#include <libproc.h>
#include <mach/kern_return.h>
#include <mach/mach.h>
#include <mach/mach_time.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/proc.h>
#include <sys/proc_info.h>
#include <sys/sysctl.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

typedef struct proc_row {
  pid_t pid;
  int ok;
  struct proc_taskallinfo info;
  uint64_t cpu_1, cpu_2; /* Mach units */
  int ended;             /* gone at the second read, or its pid now names another process */
  int zombie;            /* exited, not yet reaped: BSD info only, no task */
  unsigned flags;        /* 2 exe denied, 4 arguments denied, 8 arguments cut */
  wisp_buf text;         /* name, exe basename, argv0 basename, arguments: escaped, tab-separated */
} proc_row;

static uint64_t gcd(uint64_t a, uint64_t b) {
  while (b != 0) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/*
 * Nanoseconds per Mach tick as numer/denom. Under Rosetta 2 mach_timebase_info answers
 * 1/1 (the translated process sees nanoseconds), but the kernel's task times stay in the
 * hardware's ticks (24 MHz on Apple silicon: 125/3 ns), so CPU% would come out 41.67
 * times too low. A translated process asks hw.tbfrequency instead, and falls back to the
 * Apple silicon timebase if that too says 1 GHz.
 */
static void timebase(uint64_t *numer, uint64_t *denom) {
  mach_timebase_info_data_t tb;
  *numer = *denom = 1;
  if (mach_timebase_info(&tb) == KERN_SUCCESS && tb.denom != 0) {
    *numer = tb.numer;
    *denom = tb.denom;
  }
  int translated = 0;
  size_t size = sizeof translated;
  if (sysctlbyname("sysctl.proc_translated", &translated, &size, NULL, 0) != 0 || translated != 1) return;
  uint64_t freq = 0;
  size = sizeof freq;
  if (sysctlbyname("hw.tbfrequency", &freq, &size, NULL, 0) == 0 && freq > 0 && freq != 1000000000ull) {
    uint64_t g = gcd(1000000000ull, freq);
    *numer = 1000000000ull / g;
    *denom = freq / g;
  } else {
    *numer = 125;
    *denom = 3;
  }
}

/* `C sample user nice system idle -1 -1 -1 -1`: macOS counts no iowait, irq or steal. */
static void put_machine_cpu(wisp_buf *b, int sample) {
  host_cpu_load_info_data_t load;
  mach_msg_type_number_t n = HOST_CPU_LOAD_INFO_COUNT;
  if (host_statistics(mach_host_self(), HOST_CPU_LOAD_INFO, (host_info_t)&load, &n) != KERN_SUCCESS) return;
  wisp_buf_printf(b, "C\t%d\t%u\t%u\t%u\t%u\t-1\t-1\t-1\t-1\n", sample, load.cpu_ticks[CPU_STATE_USER],
                  load.cpu_ticks[CPU_STATE_NICE], load.cpu_ticks[CPU_STATE_SYSTEM], load.cpu_ticks[CPU_STATE_IDLE]);
}

static int list_pids(pid_t **out) {
  int count = proc_listallpids(NULL, 0);
  if (count <= 0) return -(errno ? errno : EIO);
  /* Twice the count: processes start between the two calls. */
  int cap = count * 2;
  pid_t *pids = malloc((size_t)cap * sizeof *pids);
  if (pids == NULL) return -ENOMEM;
  count = proc_listallpids(pids, cap * (int)sizeof *pids);
  if (count <= 0) {
    free(pids);
    return -(errno ? errno : EIO);
  }
  if (count > cap) count = cap;
  *out = pids;
  return count;
}

static const char *state_letter(uint32_t status) {
  switch (status) {
    case SRUN: return "R";
    case SSLEEP: return "S";
    case SSTOP: return "T";
    case SZOMB: return "Z";
    case SIDL: return "I";
    default: return "?";
  }
}

static void put_basename(wisp_buf *b, const char *s, size_t n) {
  size_t start = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '/') start = i + 1;
  wisp_buf_put_escaped(b, s + start, n - start);
}

/*
 * KERN_PROCARGS2: argc, the exec path, NUL padding, then argc NUL-terminated strings.
 * Only whole arguments, up to WISP_CMDLINE_MAX bytes: the one that would cross it and all
 * after it are left out (flag t), so nothing redacted later is a secret cut in two.
 */
static void put_args(wisp_buf *b, pid_t pid, int argmax, char *buf, unsigned *flags) {
  int mib[3] = {CTL_KERN, KERN_PROCARGS2, pid};
  size_t size = (size_t)argmax;
  if (sysctl(mib, 3, buf, &size, NULL, 0) != 0 || size < sizeof(int)) {
    if (errno == EPERM || errno == EACCES) *flags |= 4;
    wisp_buf_putc(b, '\t');
    return;
  }
  int argc;
  memcpy(&argc, buf, sizeof argc);
  char *p = buf + sizeof argc, *end = buf + size;
  while (p < end && *p != '\0') p++; /* exec path */
  while (p < end && *p == '\0') p++; /* padding */
  char *argv0 = p;
  size_t argv0_len = strnlen(argv0, (size_t)(end - p));
  put_basename(b, argv0, argv0_len);
  wisp_buf_putc(b, '\t');
  size_t written = 0;
  for (int i = 0; i < argc && p < end; i++) {
    size_t len = strnlen(p, (size_t)(end - p));
    if (written + len + (i > 0) > WISP_CMDLINE_MAX) {
      *flags |= 8;
      break;
    }
    if (i > 0) wisp_buf_putc(b, ' ');
    wisp_buf_put_escaped(b, p, len);
    written += len + (i > 0);
    p += len + 1;
  }
}

typedef struct uid_name {
  uid_t uid;
  char name[64];
} uid_name;

static const char *user_name(uid_t uid, uid_name *cache, int *cached) {
  for (int i = 0; i < *cached; i++)
    if (cache[i].uid == uid) return cache[i].name;
  if (*cached >= 64) return "";
  uid_name *slot = &cache[(*cached)++];
  slot->uid = uid;
  slot->name[0] = '\0';
  struct passwd pw, *found = NULL;
  char buf[2048];
  if (getpwuid_r(uid, &pw, buf, sizeof buf, &found) == 0 && found != NULL)
    snprintf(slot->name, sizeof slot->name, "%s", found->pw_name);
  return slot->name;
}

/* Name, exe basename, argv0 basename and arguments, escaped and tab-separated: read during the sample. */
static void read_details(proc_row *r, int argmax, char *args) {
  const struct proc_bsdinfo *bsd = &r->info.pbsd;
  const char *name = bsd->pbi_name[0] ? bsd->pbi_name : bsd->pbi_comm;
  wisp_buf_put_escaped(&r->text, name, strnlen(name, sizeof bsd->pbi_name));
  wisp_buf_putc(&r->text, '\t');
  char path[PROC_PIDPATHINFO_MAXSIZE];
  errno = 0;
  int plen = r->zombie ? 0 : proc_pidpath(r->pid, path, sizeof path);
  if (plen > 0) put_basename(&r->text, path, (size_t)plen);
  else if (errno == EPERM || errno == EACCES) r->flags |= 2;
  wisp_buf_putc(&r->text, '\t');
  if (r->zombie) wisp_buf_putc(&r->text, '\t');
  else put_args(&r->text, r->pid, argmax, args, &r->flags);
}

static void free_rows(proc_row *rows, int count) {
  for (int i = 0; i < count; i++) wisp_buf_free(&rows[i].text);
  free(rows);
}

static wisp_result *processes(int32_t token, int32_t sample_ms) {
  if (sample_ms < 0 || sample_ms > 5000) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "sample_ms must be 0..5000");
  uint64_t numer, denom;
  timebase(&numer, &denom);
  int argmax = 0;
  size_t argmax_size = sizeof argmax;
  int mib[2] = {CTL_KERN, KERN_ARGMAX};
  if (sysctl(mib, 2, &argmax, &argmax_size, NULL, 0) != 0 || argmax <= 0) argmax = 1 << 20;
  pid_t *pids = NULL;
  int count = list_pids(&pids);
  if (count < 0) return wisp_result_error(WISP_ERR_SYSTEM, -count, "proc_listallpids failed");
  proc_row *rows = calloc((size_t)(count ? count : 1), sizeof *rows);
  char *args = malloc((size_t)argmax);
  if (rows == NULL || args == NULL) {
    free(pids);
    free(rows);
    free(args);
    return wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
  }
  wisp_buf machine = {0};
  int denied = 0, vanished = 0;
  int64_t t1 = wisp_now_ns();
  put_machine_cpu(&machine, 1);
  for (int i = 0; i < count; i++) {
    rows[i].pid = pids[i];
    errno = 0;
    int n = proc_pidinfo(pids[i], PROC_PIDTASKALLINFO, 0, &rows[i].info, sizeof rows[i].info);
    if (n != (int)sizeof rows[i].info) {
      int err = errno;
      /* A zombie has no task left, only its BSD info: list it as the zombie it is. */
      struct proc_bsdinfo bsd;
      if (err != EPERM && err != EACCES &&
          proc_pidinfo(pids[i], PROC_PIDTBSDINFO, 0, &bsd, sizeof bsd) == (int)sizeof bsd && bsd.pbi_status == SZOMB) {
        memset(&rows[i].info, 0, sizeof rows[i].info);
        rows[i].info.pbsd = bsd;
        rows[i].ok = rows[i].zombie = 1;
        continue;
      }
      if (err == EPERM || err == EACCES) denied++;
      else vanished++;
      continue;
    }
    rows[i].ok = 1;
    rows[i].cpu_1 = rows[i].info.ptinfo.pti_total_user + rows[i].info.ptinfo.pti_total_system;
  }
  free(pids);
  /* Read while the sample runs, so a process that ends before the second read keeps them. */
  for (int i = 0; i < count && !wisp_cancelled(token); i++)
    if (rows[i].ok) read_details(&rows[i], argmax, args);
  free(args);
  if (wisp_sleep_cancellable(token, sample_ms - (wisp_now_ns() - t1) / 1000000)) {
    free_rows(rows, count);
    wisp_buf_free(&machine);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }
  /* The second read: the same start time, or the pid now names another process. */
  int64_t t2 = wisp_now_ns();
  put_machine_cpu(&machine, 2);
  for (int i = 0; i < count; i++) {
    if (!rows[i].ok || rows[i].zombie) continue; /* a zombie has no CPU to sample: 0 at both reads */
    struct proc_taskallinfo again;
    const struct proc_bsdinfo *first = &rows[i].info.pbsd;
    if (proc_pidinfo(rows[i].pid, PROC_PIDTASKALLINFO, 0, &again, sizeof again) == (int)sizeof again &&
        again.pbsd.pbi_start_tvsec == first->pbi_start_tvsec && again.pbsd.pbi_start_tvusec == first->pbi_start_tvusec)
      rows[i].cpu_2 = again.ptinfo.pti_total_user + again.ptinfo.pti_total_system;
    else
      rows[i].ended = 1;
  }

  uid_name cache[64];
  int cached = 0, seen = 0;
  wisp_buf body = {0};
  for (int i = 0; i < count; i++) {
    proc_row *r = &rows[i];
    if (!r->ok) continue;
    seen++;
    struct proc_bsdinfo *bsd = &r->info.pbsd;
    struct proc_taskinfo *task = &r->info.ptinfo;
    /* In long double: ticks times numer can pass 2^64 after a few months of CPU time. */
    long long cpu1 = (long long)((long double)r->cpu_1 * numer / denom);
    long long cpu2 = r->ended ? -1 : (long long)((long double)r->cpu_2 * numer / denom);
    wisp_buf_printf(&body, "P\t%d\t%d\t%u\t", r->pid, (int)bsd->pbi_ppid, (unsigned)bsd->pbi_uid);
    const char *user = user_name(bsd->pbi_uid, cache, &cached);
    wisp_buf_put_escaped(&body, user, strlen(user));
    wisp_buf_printf(&body, "\t%s\t%d\t%llu\t%lld\t%lld\t%lld\t", state_letter(bsd->pbi_status), (int)task->pti_threadnum,
                    (unsigned long long)task->pti_resident_size, cpu1, cpu2, (long long)bsd->pbi_start_tvsec);
    if (r->flags & 2) wisp_buf_putc(&body, 'e');
    if (r->flags & 4) wisp_buf_putc(&body, 'c');
    if (r->flags & 8) wisp_buf_putc(&body, 't');
    wisp_buf_putc(&body, '\t');
    wisp_buf_put(&body, r->text.data, r->text.len);
    if (r->text.failed) body.failed = 1;
    wisp_buf_putc(&body, '\n');
  }
  free_rows(rows, count);
  if (wisp_cancelled(token)) {
    wisp_buf_free(&body);
    wisp_buf_free(&machine);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }
  wisp_buf b = {0};
  long long tick_ns = numer / denom > 0 ? (long long)(numer / denom) : 1;
  wisp_buf_printf(&b, "H\t%lld\t%lld\t%lld\t%ld\t%d\t%d\t%d\n", tick_ns, (long long)(t2 - t1), (long long)time(NULL),
                  (long)getuid(), seen, denied, vanished);
  wisp_buf_put(&b, machine.data, machine.len);
  wisp_buf_free(&machine);
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
