/* Small procfs readers used by the Linux backend. */
#ifndef WISP_LINUX_UTIL_H
#define WISP_LINUX_UTIL_H

#include <stddef.h>
#include <sys/types.h>

/* Reads up to cap-1 bytes of a file into buf, NUL-terminates; returns bytes read or -errno. */
ssize_t wisp_read_file(const char *path, char *buf, size_t cap);
/*
 * Reads a whole file into out (replacing what it held), at most max bytes; returns the
 * bytes read, or -errno. *more is set when the file holds more than max bytes.
 */
struct wisp_buf;
ssize_t wisp_read_whole(const char *path, struct wisp_buf *out, size_t max, int *more);
/* Whether a /proc directory entry name is a pid (all digits). */
int wisp_is_pid_name(const char *name);
/* The last path component of s[0..n) (s itself when there is no slash). */
const char *wisp_basename_n(const char *s, size_t n, size_t *out_len);

#endif
