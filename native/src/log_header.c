/*
 * A log line's header: where its timestamp is, where its message starts, and the level it
 * declares (a syslog <PRI>, a glog letter, the input's level column, a level word after
 * the time). The one implementation of these rules: JavaScript calls it per line
 * (src/log/parse/header-native.ts), log_chunk.c per chunk.
 *
 * A header is read from a line's first bytes, p[0, n): a byte at or past n reads as none,
 * as a JavaScript string's char past its end does (the rules were written on strings of a
 * line's first bytes, one char a byte).
 */
#include <stddef.h>
#include <string.h>

#include "log_header.h"

/* The byte at i, or -1 outside [0, n). */
static inline int at(const uint8_t *p, int32_t n, int32_t i) { return i >= 0 && i < n ? p[i] : -1; }

/* How many digits from i (up to max). */
static int32_t digits(const uint8_t *p, int32_t n, int32_t i, int32_t max) {
  if (i < 0) return 0;
  int32_t stop = n - i < max ? n - i : max, k = 0;
  while (k < stop && is_digit(p[i + k])) k++;
  return k;
}

/* Exactly `count` digits at i. */
static int digits_are(const uint8_t *p, int32_t n, int32_t i, int32_t count) { return digits(p, n, i, count) == count; }

/* A regular expression's \b at i: a word character on one side only. */
static int boundary(const uint8_t *p, int32_t n, int32_t i) { return is_word(at(p, n, i - 1)) != is_word(at(p, n, i)); }

/* The first index of c in p[from, n), or -1. */
static int32_t index_of(const uint8_t *p, int32_t n, int c, int32_t from) {
  for (int32_t i = from < 0 ? 0 : from; i < n; i++)
    if (p[i] == c) return i;
  return -1;
}

/* Whether p[a, b) is the word w. */
static int is(const uint8_t *p, int32_t a, int32_t b, const char *w) {
  int32_t i = 0;
  while (a + i < b && w[i] && p[a + i] == (uint8_t)w[i]) i++;
  return a + i == b && !w[i];
}

/*
 * One or two digits at i that a given byte follows (`\d{1,2}` before a separator): the
 * separator's index, or -1. A third digit fails: the separator cannot be a digit.
 */
static int32_t two_then(const uint8_t *p, int32_t n, int32_t i, const char *separators) {
  int32_t k = digits(p, n, i, 3);
  if (k < 1 || k > 2) return -1;
  int c = at(p, n, i + k);
  if (c < 0) return -1;
  for (const char *s = separators; *s; s++)
    if (c == (uint8_t)*s) return i + k;
  return -1;
}

static int is_month_like(const uint8_t *p, int32_t n, int32_t i) { return is_upper(at(p, n, i)) && is_lower(at(p, n, i + 1)) && is_lower(at(p, n, i + 2)); }

/* `(?::\d{1,max})?`: past a colon and its digits, or i. */
static int32_t colon_digits(const uint8_t *p, int32_t n, int32_t i, int32_t max) {
  if (at(p, n, i) != ':') return i;
  int32_t k = digits(p, n, i + 1, max);
  return k > 0 ? i + 1 + k : i;
}

/* `(?:[.,]\d{1,9})?` (or `\.` alone with dot_only): past the fraction, or i. */
static int32_t fraction(const uint8_t *p, int32_t n, int32_t i, int dot_only) {
  int c = at(p, n, i);
  if (!(c == '.' || (!dot_only && c == ','))) return i;
  int32_t k = digits(p, n, i + 1, 9);
  return k == 0 ? i : i + 1 + k;
}

/* `(?:Z|[+-]\d\d:?\d\d|UTC|GMT)\b` at i: its end, or -1. */
static int32_t zone_at(const uint8_t *p, int32_t n, int32_t i) {
  int c = at(p, n, i);
  if (c == 'Z' && boundary(p, n, i + 1)) return i + 1;
  if (c == '+' || c == '-') {
    if (digits_are(p, n, i + 1, 2)) {
      if (at(p, n, i + 3) == ':' && digits_are(p, n, i + 4, 2) && boundary(p, n, i + 6)) return i + 6;
      if (digits_are(p, n, i + 3, 2) && boundary(p, n, i + 5)) return i + 5;
    }
    return -1;
  }
  if (((c == 'U' && at(p, n, i + 1) == 'T' && at(p, n, i + 2) == 'C') || (c == 'G' && at(p, n, i + 1) == 'M' && at(p, n, i + 2) == 'T')) &&
      boundary(p, n, i + 3))
    return i + 3;
  return -1;
}

/* `(?: ?(?:Z|[+-]\d\d:?\d\d|UTC|GMT)\b)?`: past the zone, or i. */
static int32_t zone(const uint8_t *p, int32_t n, int32_t i) {
  if (at(p, n, i) == ' ') {
    int32_t z = zone_at(p, n, i + 1);
    if (z >= 0) return z;
  }
  int32_t z = zone_at(p, n, i);
  return z >= 0 ? z : i;
}

/* `\d{1,2}:\d\d:\d\d` from i (a one- or two-digit hour): past the seconds, or -1. */
static int32_t clock_at(const uint8_t *p, int32_t n, int32_t i) {
  int32_t c = two_then(p, n, i, ":");
  if (c < 0 || !digits_are(p, n, c + 1, 2) || at(p, n, c + 3) != ':' || !digits_are(p, n, c + 4, 2)) return -1;
  return c + 6;
}

/*
 * ISO 8601 and friends: 2025-12-11 12:13:46.490439+0100, 2022-06-20T09:28:05.8714453Z,
 * 2024/01/02 03:04:05. Writers do not all pad: hours, minutes, seconds, days and months may
 * have one digit.
 */
static int32_t iso_form(const uint8_t *p, int32_t n, int32_t i) {
  if (!digits_are(p, n, i, 4)) return -1;
  int c = at(p, n, i + 4);
  if (c != '-' && c != '/' && c != '.') return -1;
  int32_t a = two_then(p, n, i + 5, "-/.");
  if (a < 0) return -1;
  int32_t b = two_then(p, n, a + 1, "T ");
  if (b < 0) return -1;
  int32_t h = two_then(p, n, b + 1, ":");
  if (h < 0) return -1;
  int32_t m = digits(p, n, h + 1, 2);
  if (m == 0) return -1;
  return zone(p, n, fraction(p, n, colon_digits(p, n, h + 1 + m, 2), 0));
}

/* `[A-Z][a-z]{2} [ \d]?\d \d{1,2}:\d\d:\d\d(?:\.\d{1,9})?(?: \d{4})?` from i. */
static int32_t syslog_from(const uint8_t *p, int32_t n, int32_t i) {
  if (!is_month_like(p, n, i) || at(p, n, i + 3) != ' ') return -1;
  int32_t d = i + 4;
  int c0 = at(p, n, d), c1 = at(p, n, d + 1);
  if ((c0 == ' ' || is_digit(c0)) && is_digit(c1) && at(p, n, d + 2) == ' ') d += 3;
  else if (is_digit(c0) && c1 == ' ') d += 2;
  else return -1;
  int32_t e = clock_at(p, n, d);
  if (e < 0) return -1;
  e = fraction(p, n, e, 1);
  if (at(p, n, e) == ' ' && digits_are(p, n, e + 1, 4)) e += 5;
  return e;
}

/*
 * BSD syslog and ctime: Jul  1 09:29:02, Sun Dec 04 04:47:44 2005; java.util.logging:
 * Dec 03, 2026 2:23:32 PM.
 */
static int32_t named_month_form(const uint8_t *p, int32_t n, int32_t i) {
  /* The weekday first where there is one, then without it. */
  if (is_month_like(p, n, i) && at(p, n, i + 3) == ' ') {
    int32_t e = syslog_from(p, n, i + 4);
    if (e >= 0) return e;
  }
  int32_t e = syslog_from(p, n, i);
  if (e >= 0) return e;
  if (!is_month_like(p, n, i) || at(p, n, i + 3) != ' ') return -1;
  int32_t d = two_then(p, n, i + 4, ",");
  if (d < 0 || at(p, n, d + 1) != ' ' || !digits_are(p, n, d + 2, 4) || at(p, n, d + 6) != ' ') return -1;
  e = clock_at(p, n, d + 7);
  if (e < 0) return -1;
  if (at(p, n, e) == ' ' && (at(p, n, e + 1) == 'A' || at(p, n, e + 1) == 'P') && at(p, n, e + 2) == 'M') e += 3;
  return e;
}

/* Apache and nginx access: 10/Oct/2000:13:55:36 -0700 */
static int32_t access_form(const uint8_t *p, int32_t n, int32_t i) {
  if (!digits_are(p, n, i, 2) || at(p, n, i + 2) != '/' || !is_month_like(p, n, i + 3) || at(p, n, i + 6) != '/' || !digits_are(p, n, i + 7, 4))
    return -1;
  int32_t e = i + 11;
  for (int k = 0; k < 3; k++) {
    if (at(p, n, e) != ':' || !digits_are(p, n, e + 1, 2)) return -1;
    e += 3;
  }
  if (at(p, n, e) == ' ' && (at(p, n, e + 1) == '+' || at(p, n, e + 1) == '-') && digits_are(p, n, e + 2, 4)) e += 6;
  return e;
}

/*
 * A month's name between day and year: 03-Dec-2026 14:23:30 UTC (PHP's error_log, Tomcat),
 * 3 Dec 2026 14:23:30, 3-Dec-2026::16:26:38.970600 (Erlang/OTP).
 */
static int32_t day_month_form(const uint8_t *p, int32_t n, int32_t i) {
  int32_t d = two_then(p, n, i, "- ");
  if (d < 0 || !is_month_like(p, n, d + 1)) return -1;
  int c = at(p, n, d + 4);
  if ((c != '-' && c != ' ') || !digits_are(p, n, d + 5, 4)) return -1;
  int32_t t = d + 9;
  if (at(p, n, t) == ' ') t += 1;
  else if (at(p, n, t) == ':') t += at(p, n, t + 1) == ':' ? 2 : 1;
  else return -1;
  int32_t e = clock_at(p, n, t);
  if (e < 0) return -1;
  return zone(p, n, fraction(p, n, e, 0));
}

/* Day-first or month-first dates: 23.09.2025 08:00:03, 09/23/2025 08:00:03, 9/3/2025 8:00:03 */
static int32_t numeric_date_form(const uint8_t *p, int32_t n, int32_t i) {
  int32_t a = two_then(p, n, i, "./-");
  if (a < 0) return -1;
  int32_t b = two_then(p, n, a + 1, "./-");
  if (b < 0 || !digits_are(p, n, b + 1, 4)) return -1;
  int c = at(p, n, b + 5);
  if (c != ' ' && c != 'T') return -1;
  int32_t e = clock_at(p, n, b + 6);
  return e < 0 ? -1 : fraction(p, n, e, 0);
}

/* Compact date and time: 081109 203615 (HDFS), 20171223-22:15:29:606 and 20171224-0:32:28:8 */
static int32_t compact_form(const uint8_t *p, int32_t n, int32_t i) {
  if (digits_are(p, n, i, 6) && at(p, n, i + 6) == ' ' && digits_are(p, n, i + 7, 6) && boundary(p, n, i + 13)) return i + 13;
  if (!digits_are(p, n, i, 8) || at(p, n, i + 8) != '-') return -1;
  int32_t h = two_then(p, n, i + 9, ":");
  if (h < 0) return -1;
  int32_t m = two_then(p, n, h + 1, ":");
  if (m < 0) return -1;
  int32_t s = digits(p, n, m + 1, 2);
  if (s == 0) return -1;
  return colon_digits(p, n, m + 1 + s, 3);
}

/* Two-digit-year dates: 17/06/09 20:10:40 (Spark), 03-17 16:13:38.811 (logcat: month-day) */
static int32_t short_date_form(const uint8_t *p, int32_t n, int32_t i) {
  if (!digits_are(p, n, i, 2)) return -1;
  int c = at(p, n, i + 2);
  if ((c != '/' && c != '-') || !digits_are(p, n, i + 3, 2)) return -1;
  int32_t after = i + 5;
  /* With the year where there is one, then without it. */
  int32_t tries[2] = {-1, after};
  c = at(p, n, after);
  if ((c == '/' || c == '-') && digits_are(p, n, after + 1, 2)) tries[0] = after + 3;
  for (int k = 0; k < 2; k++) {
    int32_t t = tries[k];
    if (t < 0 || at(p, n, t) != ' ') continue;
    int32_t e = clock_at(p, n, t + 1);
    if (e >= 0) return fraction(p, n, e, 0);
  }
  return -1;
}

/* `(?:[.,]\d{1,9})?\b` after i: a fraction only where a boundary follows its digits, else a boundary at i itself. */
static int32_t fraction_then_boundary(const uint8_t *p, int32_t n, int32_t i) {
  int c = at(p, n, i);
  if (c == '.' || c == ',') {
    int32_t k = digits(p, n, i + 1, 10);
    if (k >= 1 && k <= 9 && boundary(p, n, i + 1 + k)) return i + 1 + k;
  }
  return boundary(p, n, i) ? i : -1;
}

/* Time of day alone: 09:28:05.871, 9:28:05 */
static int32_t time_form(const uint8_t *p, int32_t n, int32_t i) {
  int32_t e = clock_at(p, n, i);
  return e < 0 ? -1 : fraction_then_boundary(p, n, e);
}

/* Unix epoch seconds (2001..2286), optionally fractional */
static int32_t epoch_form(const uint8_t *p, int32_t n, int32_t i) {
  if (at(p, n, i) != '1' || !digits_are(p, n, i + 1, 9)) return -1;
  int c = at(p, n, i + 10);
  if (c == '.') {
    int32_t k = digits(p, n, i + 11, 10);
    if (k >= 1 && k <= 9 && boundary(p, n, i + 11 + k)) return i + 11 + k;
  }
  return boundary(p, n, i + 10) ? i + 10 : -1;
}

typedef int32_t (*form)(const uint8_t *p, int32_t n, int32_t i);
/* The forms a timestamp starting with a digit may have, tried in this order; the first that matches is the timestamp. */
static const form DIGIT_FORMS[] = {iso_form, access_form, day_month_form, numeric_date_form, compact_form, short_date_form, time_form, epoch_form};

/*
 * A timestamp at pos, optionally wrapped in `[...]`: 1 with [*start, *end) its text, else 0.
 * A bracketed one must be followed by its `]`, or by a blank and a `]` later (`[time #pid]`).
 */
int wisp_match_timestamp(const uint8_t *p, int32_t n, int32_t pos, int32_t *start, int32_t *end) {
  int32_t i = pos;
  int c = at(p, n, i);
  int bracketed = c == '[';
  if (bracketed) c = at(p, n, ++i);
  int32_t e = -1;
  if (is_upper(c)) e = named_month_form(p, n, i);
  else if (is_digit(c)) {
    for (size_t f = 0; f < sizeof DIGIT_FORMS / sizeof DIGIT_FORMS[0] && e < 0; f++) e = DIGIT_FORMS[f](p, n, i);
  }
  if (e < 0) return 0;
  *start = i;
  *end = e;
  return !bracketed || at(p, n, e) == ']' || (at(p, n, e) == ' ' && index_of(p, n, ']', e) > e);
}

/* Erlang/OTP's report header before its time, `=CRASH REPORT==== `: its end, with the kind at [*kind, *kind_end). */
static int32_t report_header(const uint8_t *p, int32_t n, int32_t pos, int32_t *kind, int32_t *kind_end) {
  if (at(p, n, pos) != '=') return -1;
  int32_t i = pos + 1;
  while (is_upper(at(p, n, i))) i++;
  if (i == pos + 1) return -1;
  static const char rest[] = " REPORT==== ";
  for (int32_t k = 0; rest[k]; k++)
    if (at(p, n, i + k) != (uint8_t)rest[k]) return -1;
  *kind = pos + 1;
  *kind_end = i;
  return i + (int32_t)sizeof rest - 1;
}

/* logfmt's key for the time (Go's log/slog `time=`, logrus `time="..."`, go-kit `ts=`): the end of `key=` and its quote, or -1. */
static int32_t time_key(const uint8_t *p, int32_t n, int32_t pos) {
  static const char *const keys[] = {"time=", "ts=", "timestamp="};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    int32_t i = pos;
    for (const char *c = keys[k]; *c != 0 && at(p, n, i) == (uint8_t)*c; c++) i++;
    if (at(p, n, i - 1) != '=' || i - pos != (int32_t)strlen(keys[k])) continue;
    return at(p, n, i) == '"' ? i + 1 : i;
  }
  return -1;
}

/*
 * Where a line's timestamp may start, from pos: past the level letter Ruby's Logger writes
 * before its bracketed time (`E, [2024-06-03T09:00:00.902001 #23933] ERROR -- app: ...`),
 * past the process id and role letter Redis writes before it (`24318:M 03 Dec 2026
 * 15:58:08.399 #`), past the kind of report Erlang/OTP writes before it, and past logfmt's
 * time key (`time=2026-12-06T11:26:47.441969837Z level=INFO msg=...`).
 */
int32_t wisp_stamp_from(const uint8_t *p, int32_t n, int32_t pos) {
  int c = at(p, n, pos);
  if (c == 't') {
    int32_t e = time_key(p, n, pos);
    return e >= 0 ? e : pos;
  }
  if (c == '=') {
    int32_t kind, kind_end;
    int32_t e = report_header(p, n, pos, &kind, &kind_end);
    return e >= 0 ? e : pos;
  }
  if (is_upper(c)) return at(p, n, pos + 1) == ',' && at(p, n, pos + 2) == ' ' && at(p, n, pos + 3) == '[' ? pos + 3 : pos;
  if (!is_digit(c)) return pos;
  int32_t i = pos + 1;
  while (i < pos + 10 && is_digit(at(p, n, i))) i++;
  return at(p, n, i) == ':' && is_upper(at(p, n, i + 1)) && at(p, n, i + 2) == ' ' && is_digit(at(p, n, i + 3)) ? i + 3 : pos;
}

/* ---------- level words ---------- */

level_words wisp_level_words_of(const uint8_t *block) {
  level_words w = {.block = block, .count = 0, .types = 0, .troubles = 0, .window = 0, .first = 0, .trouble = 0};
  if (block != 0 && block[0] == WISP_LEVEL_WORDS_LAYOUT) {
    w.count = block[1];
    w.types = block[2];
    w.troubles = block[WISP_LEVEL_WORDS_TROUBLES];
    w.window = block[WISP_LEVEL_WORDS_WINDOW] | block[WISP_LEVEL_WORDS_WINDOW + 1] << 8;
    w.first = block + WISP_LEVEL_WORDS_HEAD + (w.count + w.types) * WISP_LEVEL_WORD_BYTES;
    w.trouble = w.first + WISP_TROUBLE_FIRST;
  }
  return w;
}

int wisp_trouble_word(const level_words *w, const uint8_t *p, int32_t n) {
  for (int32_t i = 0; i < n; i++) {
    int32_t k = w->first[p[i]];
    if (k == 0) continue;
    int c = lower(p[i]);
    /* The words that begin with this letter, next to each other in the block. */
    for (k--; k < w->troubles; k++) {
      const uint8_t *e = w->trouble + k * WISP_TROUBLE_WORD_BYTES;
      if (e[1] != c) break;
      int32_t len = e[0];
      if (len > n - i) continue;
      int32_t j = 1;
      while (j < len && lower(p[i + j]) == e[1 + j]) j++;
      if (j == len) return 1;
    }
  }
  return 0;
}

/* The severity of the level word p[a, b) in any case, or WISP_LEVEL_NONE; `spelled`: whether it is written as the list has it, in capitals, or capitalised. */
static int32_t word_level(const level_words *w, const uint8_t *p, int32_t a, int32_t b, int *spelled, int *capitals) {
  int32_t len = b - a;
  int first = lower(p[a]);
  for (int32_t k = 0; k < w->count; k++) {
    const uint8_t *e = w->block + WISP_LEVEL_WORDS_HEAD + k * WISP_LEVEL_WORD_BYTES;
    if (e[0] != len || e[2] != first) continue;
    const uint8_t *word = e + 2;
    int32_t i = 0;
    while (i < len && lower(p[a + i]) == word[i]) i++;
    if (i < len) continue;
    int all_lower = 1, all_upper = 1, rest_lower = 1;
    for (i = 0; i < len; i++) {
      if (p[a + i] != word[i]) all_lower = 0;
      if (p[a + i] != word[i] - 32) all_upper = 0;
      if (i > 0 && p[a + i] != word[i]) rest_lower = 0;
    }
    if (spelled != 0) *spelled = all_lower || all_upper || (rest_lower && p[a] == word[0] - 32);
    if (capitals != 0) *capitals = all_upper;
    return e[1];
  }
  return WISP_LEVEL_NONE;
}

/* log show's `Default` is a level only in log show's own rows: nowhere here. */
static int is_default(const uint8_t *p, int32_t a, int32_t b) {
  static const char word[] = "default";
  if (b - a != 7) return 0;
  for (int32_t i = 0; i < 7; i++)
    if (lower(p[a + i]) != (uint8_t)word[i]) return 0;
  return 1;
}

/* logcat's and glog's level letters (V D I W E F), and in a column of letters logcat's A (assert) too: alone in prose it is an article. */
static int32_t letter_level(int c, int with_assert) {
  switch (c) {
    case 'V':
    case 'D':
      return 5;
    case 'I':
      return 4;
    case 'W':
      return 2;
    case 'E':
      return 1;
    case 'F':
      return 0;
    case 'A':
      return with_assert ? 0 : WISP_LEVEL_NONE;
    default:
      return WISP_LEVEL_NONE;
  }
}

/* Between a header's tokens: blanks, and the bars some writers use instead (`...,745|DEBUG|scheduler|`). */
static const uint8_t SEPARATOR[256] = {['\t'] = 1, [' '] = 1, ['|'] = 1};
static inline int is_separator(int c) { return SEPARATOR[c]; }

/* The k-th token of p from `from`: 1 with it at [*a, *b). */
static int nth_token(const uint8_t *p, int32_t n, int32_t from, int32_t k, int32_t *a, int32_t *b) {
  int32_t i = from;
  for (int32_t t = 0;; t++) {
    while (i < n && is_separator(p[i])) i++;
    if (i >= n) return 0;
    int32_t j = i;
    while (j < n && !is_separator(p[j])) j++;
    if (t == k) {
      *a = i;
      *b = j;
      return 1;
    }
    i = j;
  }
}

static inline int is_open(int c) { return c == '[' || c == '(' || c == '<' || c == '{' || c == '"' || c == '\''; }

/*
 * The word a column's token holds: past a key (`level=`) and opening brackets, letters,
 * then nothing or a closing bracket, a colon, a slash or a comma (`[warn]`,
 * `WARNING/Worker-2]`). 1 with it at [*wa, *we).
 */
static int column_word(const uint8_t *p, int32_t a, int32_t b, int32_t *wa, int32_t *we) {
  for (int32_t i = a; i < b; i++)
    if (p[i] == '=') {
      a = i + 1;
      break;
    }
  while (a < b && is_open(p[a])) a++;
  int32_t e = a;
  while (e < b && is_letter(p[e])) e++;
  if (e < b) {
    int c = p[e];
    if (!(c == ']' || c == ')' || c == '>' || c == '}' || c == ':' || c == '/' || c == ',' || c == '"' || c == '\'' || c == '|')) return 0;
  }
  if (e == a || e - a > 13) return 0;
  *wa = a;
  *we = e;
  return 1;
}

/* The level a column's token names, if it names one: `INFO`, `[warn]`, `level=error`, `WARNING/Worker-2]`, `E` (with letters). */
static int32_t column_level(const level_words *w, const uint8_t *p, int32_t a, int32_t b, int letters) {
  int32_t wa, we;
  if (!column_word(p, a, b, &wa, &we)) return WISP_LEVEL_NONE;
  if (letters) return we - wa == 1 ? letter_level(p[wa], 1) : WISP_LEVEL_NONE;
  if (we - wa == 1 || is_default(p, wa, we)) return WISP_LEVEL_NONE;
  return word_level(w, p, wa, we, 0, 0);
}

/* The level in the input's level column, if this line has one there. */
static int32_t column_of(const level_words *w, const uint8_t *p, int32_t n, int32_t content_start, int32_t flags, int32_t column) {
  int32_t a, b;
  if (!nth_token(p, n, content_start, column, &a, &b)) return WISP_LEVEL_NONE;
  return column_level(w, p, a, b, (flags & WISP_HEADER_FLAG_COLUMN_LETTERS) != 0);
}

/* `level=`, `lvl=`, `severity=`, `loglevel=` (any case) before a level word. */
static int is_level_key(const uint8_t *p, int32_t a, int32_t b) {
  static const char *const keys[] = {"level", "lvl", "severity", "loglevel"};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
    const char *key = keys[k];
    int32_t i = 0;
    while (a + i < b && key[i] && lower(p[a + i]) == (uint8_t)key[i]) i++;
    if (a + i == b && !key[i]) return 1;
  }
  return 0;
}

/*
 * Is p[a, b) a level word? A lowercase or capitalised bare word counts only when
 * bracketed or keyed (`[warn]`, `level=info`), so that "error" in prose falls to the
 * words of the message; capitals count bare (`ERROR`).
 */
static int32_t level_token(const level_words *w, const uint8_t *p, int32_t n, int32_t a, int32_t b) {
  int marked = 0;
  int32_t eq = -1;
  for (int32_t i = a; i < b; i++)
    if (p[i] == '=') {
      eq = i;
      break;
    }
  if (eq > a) {
    if (!is_level_key(p, a, eq)) return WISP_LEVEL_NONE;
    a = eq + 1;
    if (at(p, n, a) == '"') a++;
    marked = 1;
  }
  int first = at(p, n, a);
  if (first == '[' || first == '<' || first == '(') {
    a++;
    marked = 1;
  }
  /* Closing brackets, quotes and a colon after the word. */
  while (b > a) {
    int c = p[b - 1];
    if (c == ']' || c == '>' || c == ')' || c == ':' || c == ',' || c == '"') b--;
    else break;
  }
  int32_t len = b - a;
  if (len <= 0 || len > 13) return WISP_LEVEL_NONE;
  /* Level words start with a letter; most tokens (numbers, paths, names) fail here. */
  if (!is_letter(p[a])) return WISP_LEVEL_NONE;
  if (len == 1) return letter_level(p[a], 0);
  if (is_default(p, a, b)) return WISP_LEVEL_NONE;
  int spelled = 0, capitals = 0;
  int32_t level = word_level(w, p, a, b, &spelled, &capitals);
  if (level == WISP_LEVEL_NONE) return level;
  if (spelled) return marked || capitals ? level : WISP_LEVEL_NONE;
  return marked ? level : WISP_LEVEL_NONE;
}

/*
 * A level token among the first few words from `start`: `ERROR`, `[warn]`, `<info>`,
 * `level=error`, GitHub's `##[error]`, logcat's single letters (only with `letters`).
 */
static int32_t declared_level(const level_words *w, const uint8_t *p, int32_t n, int32_t start, int letters) {
  if (at(p, n, start) == '#' && at(p, n, start + 1) == '#' && at(p, n, start + 2) == '[') {
    int32_t close = index_of(p, n, ']', start);
    if (close > 0 && close < start + 12) {
      int32_t a = start + 3;
      if (is(p, a, close, "error")) return 1;
      if (is(p, a, close, "warning")) return 2;
      if (is(p, a, close, "debug")) return 5;
      return 4;
    }
  }
  int32_t i = start;
  int32_t limit = n < start + 100 ? n : start + 100;
  for (int k = 0; k < 6 && i < limit; k++) {
    while (i < limit && p[i] == ' ') i++;
    int32_t j = i;
    while (j < limit && p[j] != ' ') j++;
    if (j == i) break;
    int32_t level = letters || j - i > 1 ? level_token(w, p, n, i, j) : WISP_LEVEL_NONE;
    if (level != WISP_LEVEL_NONE) return level;
    i = j;
  }
  return WISP_LEVEL_NONE;
}

/* Syslog priority <N> (RFC 3164/5424: one to three digits) and glog's level letter (`I0102 15:04:05.000000`) come before the time. */
static int32_t pri_or_glog(const level_words *w, const uint8_t *p, int32_t n, int32_t i) {
  int first = at(p, n, i);
  if (first == '<') {
    int32_t close = index_of(p, n, '>', i);
    int32_t len = close - i - 1;
    if (close < 0 || len < 1 || len > 3 || digits(p, n, i + 1, len) != len) return WISP_LEVEL_NONE;
    int32_t pri = 0;
    for (int32_t k = 0; k < len; k++) pri = pri * 10 + p[i + 1 + k] - '0';
    return pri < 192 ? w->block[WISP_LEVEL_WORDS_SYSLOG + (pri & 7)] : WISP_LEVEL_NONE;
  }
  if ((first == 'I' || first == 'W' || first == 'E' || first == 'F') && digits_are(p, n, i + 1, 4) && at(p, n, i + 5) == ' ') return letter_level(first, 0);
  return WISP_LEVEL_NONE;
}

/*
 * Erlang/OTP's report kinds (`=CRASH REPORT==== ...`): a level where the kind is a level's
 * name, and the kinds OTP logs at a level of their own: a process's crash and a
 * supervisor's report on a child at error, progress at info.
 */
static int32_t report_level(const level_words *w, const uint8_t *p, int32_t n, int32_t pos) {
  int32_t a, b;
  if (report_header(p, n, pos, &a, &b) < 0) return WISP_LEVEL_NONE;
  if (is(p, a, b, "CRASH") || is(p, a, b, "SUPERVISOR")) return 1;
  if (is(p, a, b, "PROGRESS")) return 4;
  return word_level(w, p, a, b, 0, 0);
}

/* ---------- log show's rows ---------- */

static int32_t spaces(const uint8_t *p, int32_t n, int32_t i) {
  while (is_space(at(p, n, i))) i++;
  return i;
}

/* `0x` and lower-case hex digits at i: past them, or -1. */
static int32_t hex_number(const uint8_t *p, int32_t n, int32_t i) {
  if (at(p, n, i) != '0' || at(p, n, i + 1) != 'x') return -1;
  int32_t j = i + 2;
  for (int c = at(p, n, j); (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); c = at(p, n, ++j)) {
  }
  return j > i + 2 ? j : -1;
}

/* The severity of log show's message type p[a, b) as written (`Default`, `Fault`), from the block's types; Info for another. */
static int32_t message_type(const level_words *w, const uint8_t *p, int32_t a, int32_t b) {
  for (int32_t k = 0; k < w->types; k++) {
    const uint8_t *e = w->block + WISP_LEVEL_WORDS_HEAD + (w->count + k) * WISP_LEVEL_WORD_BYTES;
    if (e[0] == b - a && memcmp(e + 2, p + a, (size_t)(b - a)) == 0) return e[1];
  }
  return 4;
}

/*
 * A row of log show's default style: `2025-12-11 12:00:00.039000+0100 0xf49b6  Info  0xf77263
 * 574  2  apsd: ...`: its time, thread, type, activity, pid and, with its TTL column, TTL.
 */
static int logshow_row(const level_words *w, const uint8_t *p, int32_t n, int ttl, int32_t *out) {
  if (!digits_are(p, n, 0, 4) || at(p, n, 4) != '-' || !digits_are(p, n, 5, 2) || at(p, n, 7) != '-' || !digits_are(p, n, 8, 2) || at(p, n, 10) != ' ' ||
      !digits_are(p, n, 11, 2) || at(p, n, 13) != ':' || !digits_are(p, n, 14, 2) || at(p, n, 16) != ':' || !digits_are(p, n, 17, 2) || at(p, n, 19) != '.')
    return 0;
  int32_t i = 20 + digits(p, n, 20, n);
  if (i == 20 || (at(p, n, i) != '+' && at(p, n, i) != '-') || !digits_are(p, n, i + 1, 4)) return 0;
  int32_t time_end = i + 5;
  i = spaces(p, n, time_end);
  if (i == time_end || (i = hex_number(p, n, i)) < 0) return 0;
  int32_t type = spaces(p, n, i);
  if (type == i) return 0;
  int32_t type_end = type;
  while (is_letter(at(p, n, type_end))) type_end++;
  if (type_end == type) return 0;
  i = spaces(p, n, type_end);
  if (i == type_end || (i = hex_number(p, n, i)) < 0) return 0;
  int32_t pid = spaces(p, n, i);
  if (pid == i) return 0;
  i = pid + digits(p, n, pid, n);
  int32_t msg = spaces(p, n, i);
  if (i == pid || msg == i) return 0;
  if (ttl) {
    int32_t d = msg + digits(p, n, msg, n);
    int32_t after = spaces(p, n, d);
    if (d > msg && after > d) msg = after;
  }
  out[WISP_HEADER_TIME_START] = 0;
  out[WISP_HEADER_TIME_END] = time_end;
  out[WISP_HEADER_MESSAGE] = msg;
  out[WISP_HEADER_LEVEL] = message_type(w, p, type, type_end);
  return 1;
}

/* A row of log show's compact style: `2025-12-11 12:00:00.039 Df apsd[574:f49b6] ...`, its type's two letters. */
static int compact_row(const uint8_t *p, int32_t n, int32_t *out) {
  if (!digits_are(p, n, 0, 4) || at(p, n, 4) != '-' || !digits_are(p, n, 5, 2) || at(p, n, 7) != '-' || !digits_are(p, n, 8, 2) || at(p, n, 10) != ' ' ||
      !digits_are(p, n, 11, 2) || at(p, n, 13) != ':' || !digits_are(p, n, 14, 2) || at(p, n, 16) != ':' || !digits_are(p, n, 17, 2) || at(p, n, 19) != '.' ||
      !digits_are(p, n, 20, 3) || at(p, n, 23) != ' ')
    return 0;
  int c1 = at(p, n, 24), c2 = at(p, n, 25);
  if (!is_upper(c1) || !(is_lower(c2) || c2 == ' ') || at(p, n, 26) != ' ') return 0;
  static const struct {
    char code[3];
    int32_t level;
  } types[] = {{"Df", 3}, {"I ", 4}, {"Db", 5}, {"E ", 1}, {"F ", 0}, {"A ", 4}, {"Sd", 4}};
  int32_t level = 4;
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
    if (types[k].code[0] == c1 && types[k].code[1] == c2) level = types[k].level;
  out[WISP_HEADER_TIME_START] = 0;
  out[WISP_HEADER_TIME_END] = 23;
  out[WISP_HEADER_MESSAGE] = 27;
  out[WISP_HEADER_LEVEL] = level;
  return 1;
}

/*
 * The bytes a timestamped header may begin with at fields_end: a syslog <PRI>, an Erlang
 * report's `=`, a bracketed time, a glog or Ruby level letter or a named month (capitals),
 * a time's digit. wisp_header_parse answers 0 at once for any other, and
 * wisp_log_header_starts gives the same answer as a table, so that a caller that reads
 * line by line need not call for a line that cannot hold a header (a stack frame's
 * indentation): a form that begins otherwise must be added here.
 */
static int may_begin_header(int c) { return c == '<' || c == '=' || c == '[' || c == 't' || is_upper(c) || is_digit(c); }

int wisp_header_parse(const level_words *w, const uint8_t *p, int32_t n, int32_t content_start, int32_t fields_end, int32_t flags, int32_t column, int32_t *out) {
  if (flags & WISP_HEADER_FLAG_LOGSHOW) return logshow_row(w, p, n, (flags & WISP_HEADER_FLAG_LOGSHOW_TTL) != 0, out);
  if (flags & WISP_HEADER_FLAG_COMPACT) return compact_row(p, n, out);
  if (!may_begin_header(at(p, n, fields_end))) return 0;
  int32_t i = fields_end;
  int32_t declared = pri_or_glog(w, p, n, i);
  if (declared != WISP_LEVEL_NONE) {
    if (at(p, n, i) == '<') {
      i = index_of(p, n, '>', i) + 1;
      if (at(p, n, i) == '1' && at(p, n, i + 1) == ' ') i += 2;
    } else {
      i += 1;
    }
  } else {
    i = wisp_stamp_from(p, n, i);
  }
  int32_t ts_start, ts_end;
  if (!wisp_match_timestamp(p, n, i, &ts_start, &ts_end)) {
    /* A <PRI> or glog letter is a header by itself, even where the time is missing. */
    if (declared == WISP_LEVEL_NONE || !(flags & WISP_HEADER_FLAG_TIMESTAMPED)) return 0;
    ts_start = ts_end = i;
  }
  int32_t msg = ts_end;
  /* The rest of a bracketed stamp is header too (Ruby's `[2024-06-03T09:00:00.902001 #23933]`). */
  if (ts_start > 0 && at(p, n, ts_start - 1) == '[' && at(p, n, msg) == ' ') {
    int32_t close = index_of(p, n, ']', msg);
    if (close > msg) msg = close + 1;
  }
  /* ...and a quoted one's closing quote (logrus's `time="2026-12-06T11:27:00Z"`). */
  if (ts_start > 0 && at(p, n, ts_start - 1) == '"' && at(p, n, msg) == '"') msg++;
  while (msg < n && (p[msg] == ' ' || p[msg] == '\t' || p[msg] == ']' || p[msg] == '|')) msg++;
  int32_t level = declared;
  if (level == WISP_LEVEL_NONE) level = report_level(w, p, n, fields_end);
  if (level == WISP_LEVEL_NONE && flags & WISP_HEADER_FLAG_COLUMN) level = column_of(w, p, n, content_start, flags, column);
  if (level == WISP_LEVEL_NONE) level = declared_level(w, p, n, msg, 1);
  out[WISP_HEADER_TIME_START] = ts_start;
  out[WISP_HEADER_TIME_END] = ts_end;
  out[WISP_HEADER_MESSAGE] = msg;
  out[WISP_HEADER_LEVEL] = level;
  return 1;
}

int32_t wisp_plain_level(const level_words *w, const uint8_t *p, int32_t n, int32_t content_start, int32_t from, int32_t flags, int32_t column) {
  int32_t level = pri_or_glog(w, p, n, from);
  if (level == WISP_LEVEL_NONE && flags & WISP_HEADER_FLAG_COLUMN && !(flags & WISP_HEADER_FLAG_TIMESTAMPED)) level = column_of(w, p, n, content_start, flags, column);
  /* A line without the input's header names a level in words: a lone letter there is more often a progress mark (pytest's `F      [100%]`) than logcat's `E`. */
  if (level == WISP_LEVEL_NONE) level = declared_level(w, p, n, from, 0);
  return level;
}

/* ---------- the exported calls ---------- */

static int range_ok(const uint8_t *buf, int32_t len, int32_t start, int32_t end) { return start >= 0 && end >= start && end <= len && (buf != 0 || len == 0); }

int32_t wisp_log_header(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t content_start, int32_t fields_end, int32_t flags, int32_t column,
                        intptr_t out) {
  level_words w = wisp_level_words_of((const uint8_t *)words);
  int32_t n = end - start;
  if (w.count == 0 || out == 0 || !range_ok(buf, len, start, end) || content_start < 0 || fields_end < content_start || column < 0) return -WISP_ERR_ARGUMENT;
  return wisp_header_parse(&w, buf + start, n, content_start, fields_end, flags, column, (int32_t *)out);
}

int32_t wisp_log_plain_level(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t content_start, int32_t from, int32_t flags, int32_t column) {
  level_words w = wisp_level_words_of((const uint8_t *)words);
  if (w.count == 0 || !range_ok(buf, len, start, end) || content_start < 0 || from < 0 || column < 0) return WISP_LEVEL_BAD_ARGUMENT;
  return wisp_plain_level(&w, buf + start, end - start, content_start, from, flags, column);
}

int32_t wisp_log_timestamp(const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t pos, intptr_t out) {
  if (out == 0 || !range_ok(buf, len, start, end) || pos < 0) return -WISP_ERR_ARGUMENT;
  int32_t *o = (int32_t *)out;
  return wisp_match_timestamp(buf + start, end - start, pos, &o[0], &o[1]);
}

int32_t wisp_log_stamp_from(const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t pos) {
  if (!range_ok(buf, len, start, end) || pos < 0) return -WISP_ERR_ARGUMENT;
  return wisp_stamp_from(buf + start, end - start, pos);
}

int32_t wisp_log_token_levels(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end, intptr_t out) {
  level_words w = wisp_level_words_of((const uint8_t *)words);
  if (w.count == 0 || out == 0 || !range_ok(buf, len, start, end)) return -WISP_ERR_ARGUMENT;
  const uint8_t *p = buf + start;
  int32_t n = end - start, *o = (int32_t *)out, k = 0;
  for (; k < WISP_LEVEL_TOKENS; k++) {
    int32_t a, b;
    if (!nth_token(p, n, 0, k, &a, &b)) break;
    int32_t wa, we;
    o[k] = column_level(&w, p, a, b, 0);
    o[WISP_LEVEL_TOKENS + k] = column_level(&w, p, a, b, 1) != WISP_LEVEL_NONE && column_word(p, a, b, &wa, &we) ? p[wa] : -1;
  }
  return k;
}

int32_t wisp_log_header_starts(uint8_t *out, int32_t len) {
  if (out == 0 || len != 256) return -WISP_ERR_ARGUMENT;
  for (int c = 0; c < 256; c++) out[c] = (uint8_t)may_begin_header(c);
  return WISP_OK;
}

int32_t wisp_log_trouble(intptr_t words, const uint8_t *buf, int32_t len, int32_t start, int32_t end) {
  level_words w = wisp_level_words_of((const uint8_t *)words);
  if (w.count == 0 || !range_ok(buf, len, start, end)) return -WISP_ERR_ARGUMENT;
  return wisp_trouble_word(&w, buf + start, end - start);
}
