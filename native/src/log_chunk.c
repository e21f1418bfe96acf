/*
 * condense_log's pass over a chunk for the records that are one header line: most of a
 * service's log. src/log/chunk/condense-chunk.ts calls it first and reads the rest, the
 * slow lines, itself; the two meet in the chunk's groups, merged there by input order.
 *
 * A line is read here when it says all about itself: it may hold no secret (the
 * redaction screen said so), its first bytes carry no terminal colours, it has the input's
 * header with a declared level (log_header.c), and it is shorter than the longest line
 * read whole. It is a record of its own when the line after it is such a line too (a
 * declared header starts a record whatever came before) or it is the chunk's last line.
 * A header that declares no level is such a line where JavaScript would read it as Info
 * and as a record's start: its message's words hold no trouble word (fromWords), its
 * message is no located complaint (line-shape.ts's locatedLevel), and the record open
 * before it surely names no warning or worse in its head (records.ts reads a line under a
 * warning or an error as perhaps saying more of it).
 * Such a record's template is its message's (template.c); it joins its group, keyed by its
 * severity and template as condense-chunk.ts keys it, and its placeholders' values are
 * tallied as values.ts tallies them. Every other line is left to JavaScript, in runs of
 * consecutive lines (segments), each after the records read here before it.
 *
 * Deterministic: a pure function of the chunk's bytes, the screen's verdicts and the
 * format. The arena is the caller's memory; nothing is allocated, nothing is kept.
 */
#include <stddef.h>
#include <string.h>

#include "log_header.h"

#define FNV 0x01000193u
#define ESC 0x1b

/* The template scan's state (wisp_template_add), in the arena: its head and three arrays of segments. */
#define STATE_WORDS (WISP_TEMPLATE_HEAD + 3 * WISP_TEMPLATE_SEGMENTS)

typedef struct arena {
  int32_t *w;
  int32_t size;
  int32_t used;
  int failed;
} arena;

/* n words from the arena's free end, or -1 (the arena is marked as too small). */
static int32_t take(arena *a, int32_t n) {
  if (a->failed || n > a->size - a->used) {
    a->failed = 1;
    return -1;
  }
  int32_t at = a->used;
  a->used += n;
  return at;
}

typedef struct chunk {
  const uint8_t *b;
  int32_t len;
  arena a;
  int32_t *state;
  int32_t records, groups, segments;
  int32_t records_at, segments_at, groups_at, table_at, table_mask;
  /* The segment being gathered (-1: none). */
  int32_t segment;
} chunk;

/* A candidate line: where it is and what its header said. */
typedef struct line {
  int32_t s, e, no;
  int32_t out[WISP_HEADER_OUT];
} line;

/* Terminal colours in a line's first bytes (ESC, or a copied log's literal `^[[`): JavaScript reads such a line's header from its uncoloured text. */
static int coloured(const uint8_t *p, int32_t n) {
  if (memchr(p, ESC, (size_t)n) != 0) return 1;
  for (const uint8_t *c = memchr(p, '^', (size_t)n); c != 0; c = memchr(c + 1, '^', (size_t)(p + n - c - 1)))
    if (c + 2 < p + n && c[1] == '[' && c[2] == '[') return 1;
  return 0;
}

/* A UTF-8 byte order mark's length at a line's start. */
static int32_t bom_length(const uint8_t *p, int32_t n) { return n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf ? 3 : 0; }

/* LOCATED's `[\w./+\-]`. */
static inline int located_byte(int c) { return is_word(c) || c == '.' || c == '/' || c == '+' || c == '-'; }

/*
 * Whether a message may be a located complaint (line-shape.ts's LOCATED: `sshd: line 3: `,
 * `x.c:12: `, `lib.so:(.text+0x1f): `): each of its forms begins with a run of [\w./+-] and
 * a colon right after it. p[0, n) is the message as far as the line's prefix holds it, as
 * JavaScript reads it there.
 */
static int may_be_located(const uint8_t *p, int32_t n) {
  int32_t k = 0;
  while (k < n && located_byte(p[k])) k++;
  return k > 0 && k < n && p[k] == ':';
}

/*
 * Whether a header line may carry a label where a logged error's head had its level
 * (records.ts's continuesLoggedError: PostgreSQL's `DETAIL:` under `ERROR:`): capitals,
 * a colon and a blank, after a blank, 10 bytes or more into p[0, n), the line's prefix.
 */
static int may_have_label(const uint8_t *p, int32_t n) {
  for (int32_t q = 10; q < n; q++) {
    if (p[q - 1] != ' ' || !is_upper(p[q])) continue;
    int32_t k = q;
    while (k < n && k - q < 21 && is_upper(p[k])) k++;
    if (k - q >= 2 && k - q <= 20 && k + 1 < n && p[k] == ':' && is_space(p[k + 1])) return 1;
  }
  return 0;
}

/* A line left to JavaScript: it joins the open segment, or opens one after the records read so far. */
static void slow(chunk *c, int32_t s, int32_t no) {
  if (c->segment < 0) {
    int32_t at = c->segments_at + c->segments * WISP_CHUNK_SEGMENT_WORDS;
    int32_t *seg = c->a.w + at;
    seg[WISP_SEGMENT_FIRST_LINE] = no;
    seg[WISP_SEGMENT_LINES] = 0;
    seg[WISP_SEGMENT_RECORDS_BEFORE] = c->records;
    seg[WISP_SEGMENT_START] = s;
    c->segment = at;
    c->segments++;
  }
  c->a.w[c->segment + WISP_SEGMENT_LINES]++;
}

static uint32_t slot_of(int32_t severity, uint32_t hi, uint32_t lo) {
  uint32_t h = (hi ^ (lo * 0x9e3779b1u)) + (uint32_t)severity * 0x85ebca6bu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  return h ^ (h >> 13);
}

/* A group's tallies, grown to `count` placeholders (the new ones empty). 0 when the arena is full. */
static int grow_tallies(chunk *c, int32_t *g, int32_t count) {
  int32_t have = g[WISP_GROUP_TALLIES];
  if (count <= have) return 1;
  int32_t at = take(&c->a, count * WISP_TALLY_WORDS);
  if (at < 0) return 0;
  int32_t *w = c->a.w;
  if (have > 0) memcpy(w + at, w + g[WISP_GROUP_TALLIES_AT], (size_t)have * WISP_TALLY_WORDS * sizeof(int32_t));
  for (int32_t k = have; k < count; k++) w[at + k * WISP_TALLY_WORDS] = 0;
  g[WISP_GROUP_TALLIES_AT] = at;
  g[WISP_GROUP_TALLIES] = count;
  return 1;
}

/* A value in a placeholder's tally: its records counted, kept while the tally holds at most WISP_TALLY_VALUES values. */
static void tally(const chunk *c, int32_t *t, int32_t from, int32_t to, int32_t no) {
  int32_t n = t[0];
  if (n < 0) return;
  int32_t len = to - from;
  for (int32_t k = 0; k < n; k++) {
    int32_t *v = t + 1 + k * 4;
    if (v[1] - v[0] == len && memcmp(c->b + v[0], c->b + from, (size_t)len) == 0) {
      v[2]++;
      return;
    }
  }
  if (n >= WISP_TALLY_VALUES) {
    t[0] = -1;
    return;
  }
  int32_t *v = t + 1 + n * 4;
  v[0] = from;
  v[1] = to;
  v[2] = 1;
  v[3] = no;
  t[0] = n + 1;
}

/* A candidate line as a record of its own: its template, its group, its values. */
static void commit(chunk *c, const line *l) {
  int32_t *st = c->state;
  st[WISP_TEMPLATE_H1] = (int32_t)WISP_TEMPLATE_H1_SEED;
  st[WISP_TEMPLATE_H2] = (int32_t)WISP_TEMPLATE_H2_SEED;
  st[WISP_TEMPLATE_BUDGET] = WISP_TEMPLATE_BYTES;
  st[WISP_TEMPLATE_CUT] = 0;
  st[WISP_TEMPLATE_SEGS] = 0;
  wisp_template_add(c->b, c->len, l->s + l->out[WISP_HEADER_MESSAGE], l->e, st);
  /* The group key as template.ts's key() makes it: a cut template's first hash marked. */
  uint32_t h1 = (uint32_t)st[WISP_TEMPLATE_H1];
  if (st[WISP_TEMPLATE_CUT] == 1) h1 = (h1 ^ 0xffu) * FNV;
  uint32_t lo = (uint32_t)st[WISP_TEMPLATE_H2] >> 11;
  int32_t severity = l->out[WISP_HEADER_LEVEL];
  int32_t *w = c->a.w;
  uint32_t i = slot_of(severity, h1, lo) & (uint32_t)c->table_mask;
  int32_t *g = 0;
  for (;; i = (i + 1) & (uint32_t)c->table_mask) {
    int32_t index = w[c->table_at + (int32_t)i];
    if (index < 0) break;
    int32_t *h = w + c->groups_at + index * WISP_CHUNK_GROUP_WORDS;
    if (h[WISP_GROUP_SEVERITY] == severity && (uint32_t)h[WISP_GROUP_KEY_HIGH] == h1 && (uint32_t)h[WISP_GROUP_KEY_LOW] == lo) {
      g = h;
      break;
    }
  }
  int32_t ts = l->s + l->out[WISP_HEADER_TIME_START], te = l->s + l->out[WISP_HEADER_TIME_END];
  /* The placeholders, as template.ts's placeholders() lists them (at most WISP_CHUNK_PLACEHOLDERS). */
  int32_t segs = st[WISP_TEMPLATE_SEGS], placeholders = 0;
  const int32_t *from = st + WISP_TEMPLATE_HEAD, *to = from + WISP_TEMPLATE_SEGMENTS, *kind = to + WISP_TEMPLATE_SEGMENTS;
  for (int32_t k = 0; k < segs && placeholders < WISP_CHUNK_PLACEHOLDERS; k++) placeholders += kind[k] != 0;
  int32_t index;
  if (g == 0) {
    index = c->groups++;
    w[c->table_at + (int32_t)i] = index;
    g = w + c->groups_at + index * WISP_CHUNK_GROUP_WORDS;
    g[WISP_GROUP_SEVERITY] = severity;
    g[WISP_GROUP_KEY_HIGH] = (int32_t)h1;
    g[WISP_GROUP_KEY_LOW] = (int32_t)lo;
    g[WISP_GROUP_RECORDS] = 0;
    g[WISP_GROUP_FIRST_LINE] = l->no;
    g[WISP_GROUP_START] = l->s;
    g[WISP_GROUP_END] = l->e;
    g[WISP_GROUP_MESSAGE] = l->out[WISP_HEADER_MESSAGE];
    g[WISP_GROUP_FIRST_TIME_START] = ts;
    g[WISP_GROUP_FIRST_TIME_END] = te;
    g[WISP_GROUP_PLACEHOLDERS] = placeholders;
    g[WISP_GROUP_TALLIES] = 0;
    g[WISP_GROUP_TALLIES_AT] = 0;
  } else {
    index = (int32_t)((g - (w + c->groups_at)) / WISP_CHUNK_GROUP_WORDS);
  }
  g[WISP_GROUP_RECORDS]++;
  g[WISP_GROUP_LAST_LINE] = l->no;
  g[WISP_GROUP_LAST_TIME_START] = ts;
  g[WISP_GROUP_LAST_TIME_END] = te;
  /*
   * Each record tallies as many placeholders as it has: where records of one key differ in
   * that, the caller keeps as many as the group's first record has, wherever it was read.
   */
  if (!grow_tallies(c, g, placeholders)) return;
  int32_t *tallies = w + g[WISP_GROUP_TALLIES_AT];
  for (int32_t k = 0, p = 0; k < segs && p < placeholders; k++) {
    if (kind[k] == 0) continue;
    tally(c, tallies + p * WISP_TALLY_WORDS, from[k], to[k], l->no);
    p++;
  }
  int32_t *r = w + c->records_at + c->records * WISP_CHUNK_RECORD_WORDS;
  r[0] = l->s;
  r[1] = l->e;
  r[2] = index;
  c->records++;
  /* A record read here ends the segment before it. */
  c->segment = -1;
}

int32_t wisp_log_chunk(intptr_t words, const uint8_t *buf, int32_t len, const uint8_t *screen, int32_t lines, int32_t flags, int32_t column,
                       int32_t max_line_bytes, intptr_t arena_at, int32_t arena_words) {
  level_words lw = wisp_level_words_of((const uint8_t *)words);
  int32_t *w = (int32_t *)arena_at;
  if (lw.count == 0 || (buf == 0 && len > 0) || len < 0 || lines < 0 || (screen == 0 && lines > 0) || w == 0 || arena_words < WISP_CHUNK_HEAD || column < 0 || max_line_bytes <= 0)
    return -WISP_ERR_ARGUMENT;
  chunk c = {.b = buf, .len = len, .a = {.w = w, .size = arena_words, .used = WISP_CHUNK_HEAD}, .segment = -1};
  int32_t table = 16;
  while (table < 2 * lines) table *= 2;
  int32_t state_at = take(&c.a, STATE_WORDS);
  c.records_at = take(&c.a, lines * WISP_CHUNK_RECORD_WORDS);
  c.segments_at = take(&c.a, (lines + 1) * WISP_CHUNK_SEGMENT_WORDS);
  c.table_at = take(&c.a, table);
  c.groups_at = take(&c.a, lines * WISP_CHUNK_GROUP_WORDS);
  if (c.a.failed) {
    w[WISP_CHUNK_WORDS_NEEDED] = c.a.used + STATE_WORDS + lines * (WISP_CHUNK_RECORD_WORDS + WISP_CHUNK_SEGMENT_WORDS + WISP_CHUNK_GROUP_WORDS) + 2 * table + 65536;
    return -WISP_ERR_MEMORY;
  }
  c.state = w + state_at;
  c.table_mask = table - 1;
  memset(w + c.table_at, 0xff, (size_t)table * sizeof(int32_t));

  line pending, current;
  int have_pending = 0;
  /*
   * Whether the record open before this line, as JavaScript reads it, surely names no
   * warning or worse in its head (records.ts's errorHead is ''): a line that declares no
   * level then starts a record. A declared header sets it, and so does one that declares
   * none where it starts a record (its head declares nothing); a clean line without the
   * input's header leaves it (it continues the record or starts one whose head declares
   * nothing); a line read from other text than its bytes clears it.
   */
  int clear = 1;
  int32_t no = 0;
  for (int32_t s = 0; s < len;) {
    const uint8_t *nl = memchr(buf + s, '\n', (size_t)(len - s));
    int32_t next = nl == 0 ? len : (int32_t)(nl - buf) + 1;
    int32_t e = nl == 0 ? len : next - 1;
    if (e > s && buf[e - 1] == '\r') e--;
    no++;
    if (no > lines) return -WISP_ERR_ARGUMENT;
    int32_t n = e - s < WISP_HEADER_PREFIX_BYTES ? e - s : WISP_HEADER_PREFIX_BYTES;
    int32_t content = bom_length(buf + s, e - s);
    int clean = screen[no - 1] == 0 && e - s < max_line_bytes && !coloured(buf + s, n);
    int candidate = clean && wisp_header_parse(&lw, buf + s, n, content, content, flags, column, current.out);
    if (candidate && current.out[WISP_HEADER_LEVEL] != WISP_LEVEL_NONE) {
      clear = current.out[WISP_HEADER_LEVEL] > WISP_SEVERITY_WARNING;
    } else if (candidate) {
      /* It starts a record where the record before names no warning or worse, or where it has no label to say more of one with. */
      int starts = clear || !may_have_label(buf + s, n);
      int32_t msg = current.out[WISP_HEADER_MESSAGE];
      int32_t words = e - s - msg < lw.window ? e - s - msg : lw.window;
      candidate = starts && !may_be_located(buf + s + msg, n - msg) && !wisp_trouble_word(&lw, buf + s + msg, words);
      current.out[WISP_HEADER_LEVEL] = WISP_SEVERITY_INFO;
      if (starts) clear = 1;
    } else if (!clean) {
      /* JavaScript reads this line from its redacted or uncoloured text: what it declares there is not known here. */
      clear = 0;
    }
    if (have_pending) {
      /* The line before is a record of its own where this one starts one for sure. */
      if (candidate) commit(&c, &pending);
      else slow(&c, pending.s, pending.no);
      have_pending = 0;
    }
    if (candidate) {
      current.s = s;
      current.e = e;
      current.no = no;
      pending = current;
      have_pending = 1;
    } else {
      slow(&c, s, no);
    }
    s = next;
  }
  if (have_pending) commit(&c, &pending);
  if (c.a.failed) {
    w[WISP_CHUNK_WORDS_NEEDED] = 2 * c.a.size;
    return -WISP_ERR_MEMORY;
  }
  w[WISP_CHUNK_LINES] = no;
  w[WISP_CHUNK_RECORDS] = c.records;
  w[WISP_CHUNK_GROUPS] = c.groups;
  w[WISP_CHUNK_SEGMENTS] = c.segments;
  w[WISP_CHUNK_RECORDS_AT] = c.records_at;
  w[WISP_CHUNK_SEGMENTS_AT] = c.segments_at;
  w[WISP_CHUNK_GROUPS_AT] = c.groups_at;
  w[WISP_CHUNK_WORDS_NEEDED] = c.a.used;
  return no;
}

int32_t wisp_log_chunk_lane(intptr_t scan_block, intptr_t words, intptr_t buf, int32_t len, intptr_t screen, int32_t screen_cap, int32_t native, int32_t flags,
                            int32_t column, int32_t max_line_bytes, intptr_t arena, int32_t arena_words) {
  int32_t lines = wisp_redact_screen_lines((int32_t *)scan_block, (const uint8_t *)buf, len, 0, len, (uint8_t *)screen, screen_cap);
  if (lines < 0 || !native) return lines;
  int32_t read = wisp_log_chunk(words, (const uint8_t *)buf, len, (const uint8_t *)screen, lines, flags, column, max_line_bytes, arena, arena_words);
  return read < 0 ? read : lines;
}
