/*
 * The macOS process table through libproc: proc_listallpids, proc_pidinfo with
 * PROC_PIDTASKALLINFO (name, parent, uid, resident size, threads, CPU time), proc_pidpath
 * and sysctl(KERN_PROCARGS2) for the arguments. CPU times are Mach absolute time units
 * on Apple silicon: converted with mach_timebase_info (which wrongly reports 1/1 under
 * Rosetta 2). Without root, proc_pidinfo fails with EPERM for other users' processes:
 * they are counted as denied, not listed.
 *
 * Written against Apple's documented API (libproc.h, sys/proc_info.h, sysctl(3)); built
 * only on macOS, and not built or run in this repository's Linux CI.
 */
#include <errno.h>
#include <libproc.h>
#include <mach/kern_return.h>
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
  int ended;
} proc_row;

static int list_pids(pid_t **out) {
  int count = proc_listallpids(NULL, 0);
  if (count <= 0) return -(errno ? errno : EIO);
  /* Twice the count: processes start between the two calls. */
  int cap = count * 2;
  pid_t *pids = malloc((size_t)cap * sizeof *pids);
  if (pids == NULL) return -ENOMEM;
  count = proc_listallpids(pids, cap * (int)sizeof *pids);
  if (count < 0) {
    free(pids);
    return -(errno ? errno : EIO);
  }
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

/* KERN_PROCARGS2: argc, the exec path, NUL padding, then argc NUL-terminated strings. */
static void put_args(wisp_buf *b, pid_t pid, int argmax, char *buf, unsigned *flags) {
  int mib[3] = {CTL_KERN, KERN_PROCARGS2, pid};
  size_t size = (size_t)argmax;
  if (sysctl(mib, 3, buf, &size, NULL, 0) != 0 || size < sizeof(int)) {
    *flags |= 4;
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
  for (int i = 0; i < argc && p < end; i++) {
    size_t len = strnlen(p, (size_t)(end - p));
    if (i > 0) wisp_buf_putc(b, ' ');
    /* Only the first 4 KiB of a command line are ever shown. */
    wisp_buf_put_escaped(b, p, len > 4096 ? 4096 : len);
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

static wisp_result *processes(int32_t token, int32_t sample_ms) {
  if (sample_ms < 0 || sample_ms > 5000) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "sample_ms must be 0..5000");
  mach_timebase_info_data_t tb;
  if (mach_timebase_info(&tb) != KERN_SUCCESS || tb.denom == 0) tb.numer = tb.denom = 1;
  pid_t *pids = NULL;
  int count = list_pids(&pids);
  if (count < 0) return wisp_result_error(WISP_ERR_SYSTEM, -count, "proc_listallpids failed");
  proc_row *rows = calloc((size_t)(count ? count : 1), sizeof *rows);
  if (rows == NULL) {
    free(pids);
    return wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
  }
  int denied = 0, vanished = 0;
  int64_t t1 = wisp_now_ns();
  for (int i = 0; i < count; i++) {
    rows[i].pid = pids[i];
    errno = 0;
    int n = proc_pidinfo(pids[i], PROC_PIDTASKALLINFO, 0, &rows[i].info, sizeof rows[i].info);
    if (n != (int)sizeof rows[i].info) {
      if (errno == EPERM || errno == EACCES) denied++;
      else vanished++;
      continue;
    }
    rows[i].ok = 1;
    rows[i].cpu_1 = rows[i].info.ptinfo.pti_total_user + rows[i].info.ptinfo.pti_total_system;
  }
  free(pids);
  if (wisp_sleep_cancellable(token, sample_ms - (wisp_now_ns() - t1) / 1000000)) {
    free(rows);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }
  int64_t t2 = wisp_now_ns();
  for (int i = 0; i < count; i++) {
    if (!rows[i].ok) continue;
    struct proc_taskinfo ti;
    if (proc_pidinfo(rows[i].pid, PROC_PIDTASKINFO, 0, &ti, sizeof ti) == (int)sizeof ti)
      rows[i].cpu_2 = ti.pti_total_user + ti.pti_total_system;
    else
      rows[i].ended = 1;
  }

  int argmax = 0;
  size_t argmax_size = sizeof argmax;
  int mib[2] = {CTL_KERN, KERN_ARGMAX};
  if (sysctl(mib, 2, &argmax, &argmax_size, NULL, 0) != 0 || argmax <= 0) argmax = 1 << 20;
  char *args = malloc((size_t)argmax);
  if (args == NULL) {
    free(rows);
    return wisp_result_error(WISP_ERR_MEMORY, ENOMEM, "out of memory");
  }
  uid_name cache[64];
  int cached = 0, seen = 0;
  wisp_buf body = {0};
  for (int i = 0; i < count; i++) {
    proc_row *r = &rows[i];
    if (!r->ok) continue;
    if (wisp_cancelled(token)) break;
    seen++;
    struct proc_bsdinfo *bsd = &r->info.pbsd;
    struct proc_taskinfo *task = &r->info.ptinfo;
    long long cpu1 = (long long)(r->cpu_1 * tb.numer / tb.denom);
    long long cpu2 = r->ended ? -1 : (long long)(r->cpu_2 * tb.numer / tb.denom);
    wisp_buf_printf(&body, "P\t%d\t%d\t%u\t", r->pid, (int)bsd->pbi_ppid, (unsigned)bsd->pbi_uid);
    const char *user = user_name(bsd->pbi_uid, cache, &cached);
    wisp_buf_put_escaped(&body, user, strlen(user));
    wisp_buf_printf(&body, "\t%s\t%d\t%llu\t%lld\t%lld\t%lld\t", state_letter(bsd->pbi_status), (int)task->pti_threadnum,
                    (unsigned long long)task->pti_resident_size, cpu1, cpu2, (long long)bsd->pbi_start_tvsec);
    unsigned flags = 0;
    wisp_buf rest = {0};
    const char *name = bsd->pbi_name[0] ? bsd->pbi_name : bsd->pbi_comm;
    wisp_buf_put_escaped(&rest, name, strnlen(name, sizeof bsd->pbi_name));
    wisp_buf_putc(&rest, '\t');
    char path[PROC_PIDPATHINFO_MAXSIZE];
    int plen = proc_pidpath(r->pid, path, sizeof path);
    if (plen > 0) put_basename(&rest, path, (size_t)plen);
    else flags |= 2;
    wisp_buf_putc(&rest, '\t');
    put_args(&rest, r->pid, argmax, args, &flags);
    if (flags & 2) wisp_buf_putc(&body, 'e');
    if (flags & 4) wisp_buf_putc(&body, 'c');
    wisp_buf_putc(&body, '\t');
    wisp_buf_put(&body, rest.data, rest.len);
    if (rest.failed) body.failed = 1;
    wisp_buf_free(&rest);
    wisp_buf_putc(&body, '\n');
  }
  free(args);
  free(rows);
  if (wisp_cancelled(token)) {
    wisp_buf_free(&body);
    return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
  }
  wisp_buf b = {0};
  long long tick_ns = tb.numer / tb.denom > 0 ? tb.numer / tb.denom : 1;
  wisp_buf_printf(&b, "H\t%lld\t%lld\t%lld\t%ld\t%d\t%d\t%d\n", tick_ns, (long long)(t2 - t1), (long long)time(NULL),
                  (long)getuid(), seen, denied, vanished);
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
