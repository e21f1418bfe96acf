/*
 * The systemd journal through libsystemd.so.0, opened at run time with dlopen so that
 * the library neither links against it nor needs its headers: a box without systemd
 * still loads wisp, and only this call says the journal is unavailable.
 *
 * Lines are written with the entry's syslog priority in front (`<PRI>` as in RFC 3164/
 * 5424) so that every one of the eight severities survives into wisp's log parser; log
 * show's compact style has no warning type, and journal warnings are common.
 *
 * Any local process can write any bytes into the journal's fields (a SYSLOG_IDENTIFIER
 * with a newline in it, then a whole forged line): every field is escaped as it is
 * written, so one entry is always one line.
 *
 * sd-journal objects belong to the thread that opened them (sd-journal(3)): each wisp_log
 * has a worker thread of its own, which opens, reads and closes it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"

#define SD_JOURNAL_LOCAL_ONLY 1

typedef struct sd_journal sd_journal;

static struct {
  int (*open)(sd_journal **, int);
  int (*open_files)(sd_journal **, const char **, int);
  void (*close)(sd_journal *);
  int (*add_match)(sd_journal *, const void *, size_t);
  int (*add_disjunction)(sd_journal *);
  int (*add_conjunction)(sd_journal *);
  int (*seek_realtime_usec)(sd_journal *, uint64_t);
  int (*next)(sd_journal *);
  int (*get_realtime_usec)(sd_journal *, uint64_t *);
  int (*get_data)(sd_journal *, const char *, const void **, size_t *);
  int (*set_data_threshold)(sd_journal *, size_t);
  int (*has_runtime_files)(sd_journal *);
  int (*has_persistent_files)(sd_journal *);
} sd;

static pthread_once_t sd_once = PTHREAD_ONCE_INIT;
static char sd_error[200];

static void load_libsystemd(void) {
  void *h = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    snprintf(sd_error, sizeof sd_error, "libsystemd.so.0 could not be loaded: %s", dlerror());
    return;
  }
#define SYM(field, name)                                                                   \
  do {                                                                                     \
    *(void **)(&sd.field) = dlsym(h, name);                                                \
    if (sd.field == NULL) {                                                                \
      snprintf(sd_error, sizeof sd_error, "libsystemd.so.0 has no %s (too old?)", name);   \
      return;                                                                              \
    }                                                                                      \
  } while (0)
  SYM(open, "sd_journal_open");
  SYM(open_files, "sd_journal_open_files");
  SYM(close, "sd_journal_close");
  SYM(add_match, "sd_journal_add_match");
  SYM(add_disjunction, "sd_journal_add_disjunction");
  SYM(add_conjunction, "sd_journal_add_conjunction");
  SYM(seek_realtime_usec, "sd_journal_seek_realtime_usec");
  SYM(next, "sd_journal_next");
  SYM(get_realtime_usec, "sd_journal_get_realtime_usec");
  SYM(get_data, "sd_journal_get_data");
  SYM(set_data_threshold, "sd_journal_set_data_threshold");
  SYM(has_runtime_files, "sd_journal_has_runtime_files");
  SYM(has_persistent_files, "sd_journal_has_persistent_files");
#undef SYM
}

struct wisp_log {
  wisp_worker *worker; /* started by the first open; every sd_journal call runs on it */
  sd_journal *j;
  uint64_t since;
  uint64_t until; /* 0: no end */
  int ended;
  char file[512]; /* for error messages; empty for the system's journal */
};

wisp_log *wisp_log_new(void) { return calloc(1, sizeof(wisp_log)); }

static wisp_result *close_job(void *p) {
  wisp_log *log = p;
  if (log->j != NULL) sd.close(log->j);
  log->j = NULL;
  return NULL;
}

void wisp_log_close(wisp_log *log) {
  if (log == NULL) return;
  /* Queued behind a read still running, so the journal is never closed under it. */
  if (log->worker != NULL) wisp_worker_finish(log->worker, close_job, log);
  free(log);
}

/* What an errno from opening or reading a journal file means, in words. */
static const char *journal_problem(int err) {
  switch (err) {
    case ENODATA: return "the file is truncated or holds no journal data";
    case EBADMSG: return "the file is corrupt (a bad header or object)";
    case EPROTONOSUPPORT:
    case EOPNOTSUPP: return "the file uses journal features this libsystemd does not know (written by a newer systemd?)";
    case EACCES:
    case EPERM: return "permission denied";
    default: return NULL;
  }
}

/* "cannot open the journal file X: the file is corrupt (...); journalctl --verify ..." */
static wisp_result *journal_error(const char *doing, const char *file, int err) {
  const char *problem = journal_problem(err);
  const char *verify = (err == ENODATA || err == EBADMSG) && file[0] != '\0' ? "; journalctl --verify --file FILE says more" : "";
  if (problem == NULL)
    return wisp_result_error(WISP_ERR_SYSTEM, err, "%s%s%s: %s", doing, file[0] ? " file " : "", file, strerror(err));
  return wisp_result_error(WISP_ERR_SYSTEM, err, "%s%s%s: %s (%s)%s", doing, file[0] ? " file " : "", file, problem,
                           strerror(err), verify);
}

/* Adds FIELD=value; returns 0 or -errno. */
static int match(sd_journal *j, const char *field, const char *value, size_t value_len) {
  char term[600];
  int n = snprintf(term, sizeof term, "%s=%.*s", field, (int)value_len, value);
  if (n < 0 || (size_t)n >= sizeof term) return -EINVAL;
  return sd.add_match(j, term, (size_t)n);
}

/*
 * --process matches the command name or the syslog identifier; --subsystem the system or
 * user unit (`.service` added to a bare name, as journalctl -u does). Written as
 * (_COMM | SYSLOG_IDENTIFIER) & (_SYSTEMD_UNIT | _SYSTEMD_USER_UNIT): within a
 * conjunction's side, add_disjunction separates the alternatives.
 */
static int add_filters(sd_journal *j, const char *process, const char *subsystem) {
  int rc = 0;
  if (process[0] != '\0') {
    size_t len = strlen(process);
    /* The kernel keeps 15 bytes of a command name (TASK_COMM_LEN): match those. */
    size_t comm_len = len > 15 ? 15 : len;
    if ((rc = match(j, "_COMM", process, comm_len)) < 0) return rc;
    if ((rc = sd.add_disjunction(j)) < 0) return rc;
    if ((rc = match(j, "SYSLOG_IDENTIFIER", process, len)) < 0) return rc;
  }
  if (subsystem[0] != '\0') {
    if (process[0] != '\0' && (rc = sd.add_conjunction(j)) < 0) return rc;
    char unit[300];
    int n = snprintf(unit, sizeof unit, strchr(subsystem, '.') ? "%s" : "%s.service", subsystem);
    if (n < 0 || (size_t)n >= sizeof unit) return -EINVAL;
    if ((rc = match(j, "_SYSTEMD_UNIT", unit, (size_t)n)) < 0) return rc;
    if ((rc = sd.add_disjunction(j)) < 0) return rc;
    if ((rc = match(j, "_SYSTEMD_USER_UNIT", unit, (size_t)n)) < 0) return rc;
  }
  return 0;
}

static wisp_result *log_open(wisp_log *log, const char *file, int64_t since_usec, int64_t until_usec,
                             const char *process, const char *subsystem) {
  if (log == NULL || file == NULL || process == NULL || subsystem == NULL || since_usec < 0 || until_usec < 0)
    return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "bad arguments to wisp_log_open");
  if (log->j != NULL) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "log already open");
  pthread_once(&sd_once, load_libsystemd);
  if (sd_error[0] != '\0') return wisp_result_error(WISP_ERR_UNAVAILABLE, ENOENT, "%s", sd_error);
  tzset();
  int rc;
  if (file[0] != '\0') {
    const char *paths[2] = {file, NULL};
    rc = sd.open_files(&log->j, paths, 0);
  } else {
    rc = sd.open(&log->j, SD_JOURNAL_LOCAL_ONLY);
  }
  if (rc < 0) {
    log->j = NULL;
    return journal_error("cannot open the journal", file, -rc);
  }
  snprintf(log->file, sizeof log->file, "%s", file);
  sd.set_data_threshold(log->j, 64 * 1024);
  if ((rc = add_filters(log->j, process, subsystem)) < 0)
    return wisp_result_error(WISP_ERR_ARGUMENT, -rc, "cannot set the journal filter: %s", strerror(-rc));
  if ((rc = sd.seek_realtime_usec(log->j, (uint64_t)since_usec)) < 0)
    return wisp_result_error(WISP_ERR_SYSTEM, -rc, "cannot seek in the journal: %s", strerror(-rc));
  log->since = (uint64_t)since_usec;
  log->until = (uint64_t)until_usec;
  wisp_buf b = {0};
  int files = sd.has_runtime_files(log->j) > 0 || sd.has_persistent_files(log->j) > 0;
  wisp_buf_printf(&b, "F\t%d\n", files || file[0] != '\0');
  return wisp_result_from(&b);
}

/* A field's value (after `FIELD=`), or NULL. */
static const char *field(sd_journal *j, const char *name, size_t *len) {
  const void *data;
  size_t n;
  if (sd.get_data(j, name, &data, &n) < 0) return NULL;
  size_t skip = strlen(name) + 1;
  if (n < skip) return NULL;
  *len = n - skip;
  return (const char *)data + skip;
}

/* A field's digits as a number, -1 when it is not 1 to 3 digits. */
static int small_number(const char *s, size_t n) {
  if (s == NULL || n == 0 || n > 3) return -1;
  int v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

static int all_digits(const char *s, size_t n) {
  if (s == NULL || n == 0) return 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

static void put_entry(wisp_buf *b, sd_journal *j, uint64_t usec) {
  size_t n;
  const char *raw_priority = field(j, "PRIORITY", &n);
  size_t priority_len = n;
  int priority = small_number(raw_priority, n);
  int priority_ok = priority >= 0 && priority <= 7;
  if (priority_ok) {
    const char *v = field(j, "SYSLOG_FACILITY", &n);
    int facility = small_number(v, n);
    wisp_buf_printf(b, "<%d>", (facility < 0 || facility > 23 ? 0 : facility) * 8 + priority);
  }
  time_t secs = (time_t)(usec / 1000000);
  struct tm tm;
  char when[64], zone[16];
  localtime_r(&secs, &tm);
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
  strftime(zone, sizeof zone, "%z", &tm);
  wisp_buf_printf(b, "%s.%03u%s ", when, (unsigned)((usec / 1000) % 1000), zone);

  size_t ident_len;
  const char *ident = field(j, "SYSLOG_IDENTIFIER", &ident_len);
  if (ident == NULL) ident = field(j, "_COMM", &ident_len);
  if (ident == NULL) {
    ident = "unknown";
    ident_len = 7;
  }
  wisp_buf_put_line_escaped(b, ident, ident_len);
  /* _PID is the journal's own; SYSLOG_PID is the sender's word: digits only, either way. */
  size_t pid_len;
  const char *pid = field(j, "_PID", &pid_len);
  if (!all_digits(pid, pid_len)) pid = field(j, "SYSLOG_PID", &pid_len);
  if (all_digits(pid, pid_len) && pid_len < 12) {
    wisp_buf_putc(b, '[');
    wisp_buf_put(b, pid, pid_len);
    wisp_buf_putc(b, ']');
  }
  wisp_buf_puts(b, ": ");
  if (raw_priority != NULL && !priority_ok) {
    /* Not a syslog level: shown as it is, so its severity is neither made up nor lost. */
    wisp_buf_puts(b, "(PRIORITY=");
    wisp_buf_put_line_escaped(b, raw_priority, priority_len > 32 ? 32 : priority_len);
    wisp_buf_puts(b, priority_len > 32 ? "..." : "");
    wisp_buf_puts(b, " is not a syslog level) ");
  }

  size_t msg_len = 0;
  const char *msg = field(j, "MESSAGE", &msg_len);
  while (msg_len > 0 && (msg[msg_len - 1] == '\n' || msg[msg_len - 1] == '\r')) msg_len--;
  if (msg != NULL) wisp_buf_put_line_escaped(b, msg, msg_len);
  wisp_buf_putc(b, '\n');
}

static wisp_result *log_read(wisp_log *log, int32_t token, int32_t max_bytes) {
  if (log == NULL || log->j == NULL || max_bytes <= 0)
    return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "log not open");
  wisp_buf b = {0};
  for (unsigned count = 0; !log->ended; count++) {
    if ((count & 255) == 0 && wisp_cancelled(token)) {
      wisp_buf_free(&b);
      return wisp_result_error(WISP_CANCELLED, ECANCELED, "cancelled");
    }
    if (b.len >= (size_t)max_bytes) break;
    int rc = sd.next(log->j);
    if (rc < 0) {
      wisp_buf_free(&b);
      return journal_error("cannot read the journal", log->file, -rc);
    }
    if (rc == 0) {
      log->ended = 1;
      break;
    }
    uint64_t usec;
    if (sd.get_realtime_usec(log->j, &usec) < 0) continue;
    /* Entries of several files interleave: the seek puts each file at the start time, and
       anything older that slips through is dropped here. */
    if (usec < log->since) continue;
    if (log->until != 0 && usec > log->until) {
      log->ended = 1;
      break;
    }
    put_entry(&b, log->j, usec);
  }
  wisp_result *r = wisp_result_from(&b);
  if (r != NULL && r->status == WISP_OK && log->ended) r->status = WISP_END;
  return r;
}

/* Both run on the log's worker thread (an 8 MiB stack: libsystemd decompresses on it). */
typedef struct log_args {
  wisp_log *log;
  const char *file, *process, *subsystem;
  int64_t since, until;
  int32_t token, max_bytes;
} log_args;

static wisp_result *open_job(void *p) {
  log_args *a = p;
  return log_open(a->log, a->file, a->since, a->until, a->process, a->subsystem);
}

static wisp_result *read_job(void *p) {
  log_args *a = p;
  return log_read(a->log, a->token, a->max_bytes);
}

wisp_result *wisp_log_open(wisp_log *log, const char *file, int64_t since_usec, int64_t until_usec,
                           const char *process, const char *subsystem) {
  if (log == NULL) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "bad arguments to wisp_log_open");
  if (log->worker == NULL) {
    wisp_result *error = NULL;
    log->worker = wisp_worker_start("wisp-log", &error);
    if (log->worker == NULL) return error;
  }
  log_args a = {.log = log, .file = file, .process = process, .subsystem = subsystem, .since = since_usec,
                .until = until_usec};
  return wisp_worker_run(log->worker, open_job, &a);
}

wisp_result *wisp_log_read(wisp_log *log, int32_t token, int32_t max_bytes) {
  if (log == NULL || log->worker == NULL) return wisp_result_error(WISP_ERR_ARGUMENT, EINVAL, "log not open");
  log_args a = {.log = log, .token = token, .max_bytes = max_bytes};
  return wisp_worker_run(log->worker, read_job, &a);
}
