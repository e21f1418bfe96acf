/*
 * The redaction scan: one pass over a text's bytes that finds which rule conditions hold
 * (src/redact/conditions.ts). Two automata step once per byte: Aho-Corasick over every
 * keyword (ASCII, case-insensitive) and a run automaton (src/redact/run-events.ts) that
 * enters an event state only where a shape check could hold. A keyword hit has its
 * surroundings checked (its context); an event runs its shape's check. Any byte >= 0x80 is
 * a separator, so a raw line and the string decoded from it scan alike.
 *
 * This file is the one implementation of the scan's checks. Its tables (automata, byte
 * classes, the rules' signals, the thresholds) are all built by src/redact/scan.ts and
 * read from the block it lays out (wisp.h says how). It is the byte screen in front of
 * redact() (whether a line may hold anything a rule would change) and redact()'s own choice
 * of rules to run, so the screen is sound by construction.
 *
 * Linear time: a keyword hit looks at a bounded window (or, for `url-at`, a window later
 * hits do not scan again); a run a shape check walks is walked once, when the run
 * automaton says it could hold. Nothing reads outside [start, end).
 */
#include <stddef.h>
#include <string.h>

#include "../include/wisp.h"

#define SPACE 0x20
#define DASH 0x2d
#define DOT 0x2e
#define PLUS 0x2b
#define OPEN 0x28
#define CLOSE 0x29
#define BACKSLASH 0x5c

/* The last few digit groups of a run, for the layout checks. A power of two: slots are taken with a mask. */
#define RING 8

typedef struct tables {
  int32_t *head;
  const uint32_t *keyword_rows;
  int32_t keyword_shift;
  uint32_t first_hit_row;
  int32_t first_hit;
  const uint16_t *classes;
  const uint16_t *run_rows;
  int32_t run_shift;
  uint32_t first_event_row;
  int32_t first_event;
  const uint8_t *run_events;
  const int32_t *hit_start, *hit_end;
  const int8_t *entry_context;
  const int32_t *entry_param, *entry_signal, *entry_length;
  const uint8_t *sufficient;
  const int32_t *shape_signal;
  const int32_t *conj_of_start, *conj_of_end, *conj_ids, *part_start, *part_end, *parts;
  int32_t *stamp;
  const uint32_t *cc;
  const uint8_t *iban_length;
} tables;

typedef struct scan {
  const tables *t;
  const uint8_t *b;
  int32_t start, end;
  int32_t generation;
  int collect;
  int32_t url_no_at_before;
} scan;

/* The digit groups seen so far in a run (digit_groups), and how many of the last are joined by short gaps. */
typedef struct groups {
  const uint32_t *cc;
  int32_t count, chained;
  int32_t length[RING], first[RING], value[RING];
  /* The characters between a group and the one before (for the first group: the joining characters before it). */
  int32_t gap_length[RING], gap_first[RING], gap_last[RING];
  /* For the first group of a run: the byte before its joining characters (-1 at the start). */
  int32_t before;
} groups;

/* Bits digit_groups sets. */
#define CARD_BIT 1
#define SSN_BIT 2
#define PHONE_BIT 4
#define IPV4_BIT 8

static inline int has(const uint32_t *cc, int c, uint32_t bit) { return (cc[c] & bit) != 0; }

/* Public IPv4 by its first two octets (validators.ts says why these ranges stay). */
static int public_prefix(int32_t a, int32_t b) {
  if (a == 0 || a == 10 || a == 127 || a >= 224) return 0;
  if (a == 169 && b == 254) return 0;
  if (a == 172 && b >= 16 && b <= 31) return 0;
  if (a == 192 && b == 168) return 0;
  if (a == 100 && b >= 64 && b <= 127) return 0;
  return 1;
}

/* ---------- digit groups ---------- */

static inline int32_t slot(const groups *g, int32_t back) { return (g->count - 1 - back) & (RING - 1); }
static inline int32_t glen(const groups *g, int32_t back) { return back < g->chained ? g->length[slot(g, back)] : -1; }
static inline int32_t gfirst(const groups *g, int32_t back) { return g->first[slot(g, back)]; }
/* The one character before group `back`, or -1 when the gap is not one character. */
static inline int32_t gsingle(const groups *g, int32_t back) {
  int32_t s = slot(g, back);
  return g->gap_length[s] == 1 ? g->gap_last[s] : -1;
}

/* Whether group `back` (from the last) may start a match: the character before it is not a word character nor one the rule's lookbehind forbids. */
static int clean(const groups *g, int32_t back, uint32_t forbidden) {
  if (back >= g->chained) return 0;
  int32_t s = slot(g, back);
  int32_t c = g->gap_length[s] == 0 ? g->before : g->gap_last[s];
  if (c == -1) return 1;
  if (g->gap_length[s] == 0 && has(g->cc, c, WISP_CC_WORD)) return 0;
  return !has(g->cc, c, forbidden);
}

/* The layouts that end at the last group. */
static void check_layouts(const groups *g, int32_t *bits) {
  /* Each layout's last group has a length of its own: most groups end none. */
  int32_t last = glen(g, 0);
  if (g->chained >= 4 && last <= 3) {
    /* a.b.c.d: 1-3 digits each, no leading zero, at most 255, public, not a network (d = 0). */
    int quad = clean(g, 3, WISP_CC_BEFORE_IP);
    for (int32_t k = 0; k < 4 && quad; k++) {
      int32_t l = glen(g, k);
      int32_t v = g->value[slot(g, k)];
      if (l > 3 || v > 255 || (l > 1 && gfirst(g, k) == 0)) quad = 0;
      if (k < 3 && gsingle(g, k) != DOT) quad = 0;
    }
    if (quad && g->value[slot(g, 0)] != 0 && public_prefix(g->value[slot(g, 3)], g->value[slot(g, 2)])) *bits |= IPV4_BIT;
  }
  if (g->chained >= 3 && (last == 3 || last == 4)) {
    int32_t sep = gsingle(g, 0);
    int32_t a = glen(g, 2), b = glen(g, 1), c = glen(g, 0);
    /* SSN: 3-2-4 joined by the same space or dash. */
    if (a == 3 && b == 2 && c == 4 && (sep == SPACE || sep == DASH) && gsingle(g, 1) == sep && clean(g, 2, WISP_CC_BEFORE_SSN)) *bits |= SSN_BIT;
    int mid = b >= 3 && b <= 4 && c >= 3 && c <= 4;
    /* (ddd) ddd-dddd: the area code in parentheses. */
    int32_t g1 = slot(g, 1);
    int paren = g->gap_last[slot(g, 2)] == OPEN && g->gap_first[g1] == CLOSE && g->gap_length[g1] <= 2;
    if (paren && mid && a >= 2 && a <= 5 && (sep == SPACE || sep == DOT || sep == DASH)) *bits |= PHONE_BIT;
    /* ddd-ddd-dddd (and 1-ddd-ddd-dddd), one separator throughout. */
    if (a == 3 && b == 3 && c == 4 && gsingle(g, 1) == sep && (sep == DASH || sep == DOT || (sep == SPACE && glen(g, 3) == 1))) {
      if (clean(g, 2, WISP_CC_BEFORE_PHONE) || (glen(g, 3) == 1 && gfirst(g, 3) == 1 && gsingle(g, 2) == sep && clean(g, 3, WISP_CC_BEFORE_PHONE))) *bits |= PHONE_BIT;
    }
    /* 0dd(dd) ddd(d) ddd(d): a trunk prefix. */
    int32_t trunk_sep = gsingle(g, 1);
    if (mid && gfirst(g, 2) == 0 && a >= 3 && a <= 5 && (trunk_sep == SPACE || trunk_sep == DASH) && (sep == SPACE || sep == DASH) && clean(g, 2, WISP_CC_BEFORE_PHONE)) *bits |= PHONE_BIT;
  }
  if (g->chained >= 2 && last >= 6 && last <= 8) {
    /* 0ddd dddddd(dd): a trunk prefix, then the subscriber number in one group. */
    int32_t sep = gsingle(g, 0);
    int32_t a = glen(g, 1), b = glen(g, 0);
    if (gfirst(g, 1) == 0 && a >= 3 && a <= 5 && b >= 6 && b <= 8 && (sep == SPACE || sep == DASH) && clean(g, 1, WISP_CC_BEFORE_PHONE)) *bits |= PHONE_BIT;
  }
  if (g->chained >= 5 && last == 2) {
    /* 0d dd dd dd dd */
    int32_t sep = gsingle(g, 0);
    int pairs = gfirst(g, 4) == 0 && (sep == SPACE || sep == DOT) && clean(g, 4, WISP_CC_BEFORE_PHONE);
    for (int32_t k = 0; k < 5 && pairs; k++)
      if (glen(g, k) != 2 || (k < 4 && gsingle(g, k) != sep)) pairs = 0;
    if (pairs) *bits |= PHONE_BIT;
  }
}

/*
 * Walks the digit groups that start at `i` (a digit), with the shapes found in `bits`.
 * Each layout is checked when a group ends, over the last few groups.
 */
static void digit_groups(const scan *x, int32_t i, int32_t *bits) {
  const uint8_t *b = x->b;
  const uint32_t *cc = x->t->cc;
  const int32_t *head = x->t->head;
  const int32_t card_digits_min = head[WISP_SCAN_CARD_DIGITS], plus_digits_min = head[WISP_SCAN_PLUS_DIGITS];
  int32_t start = x->start, end = x->end;
  groups g;
  g.cc = cc;
  g.count = 0;
  g.chained = 0;
  int32_t card_digits = -1; /* digits since a group that may start a card, over single space or dash gaps */
  int32_t plus_digits = -1; /* digits since a `+` */
  /* The joining characters right before the first group (`(555)`, `+44`). */
  int32_t lead = i;
  while (lead > start && lead > i - 2 && has(cc, b[lead - 1], WISP_CC_DIGIT_JOIN)) lead--;
  g.before = lead > start ? b[lead - 1] : -1;
  int32_t gap = i - lead;
  int32_t first = gap > 0 ? b[lead] : 0;
  int32_t last = gap > 0 ? b[i - 1] : 0;
  int plus_pending = last == PLUS;
  int32_t j = i;
  while (j < end) {
    int32_t c = b[j];
    if (has(cc, c, WISP_CC_DIGIT)) {
      int32_t len = 0, value = 0;
      int32_t leading = c - '0';
      while (j < end && has(cc, b[j], WISP_CC_DIGIT)) {
        if (value < 100000) value = value * 10 + (b[j] - '0');
        len++;
        j++;
      }
      int32_t at = g.count & (RING - 1);
      g.length[at] = len;
      g.first[at] = leading;
      g.value[at] = value;
      g.gap_length[at] = gap;
      g.gap_first[at] = first;
      g.gap_last[at] = last;
      if (g.count > 0 && gap > 2) {
        g.chained = 0;
        card_digits = -1;
        plus_digits = -1;
      }
      if (plus_pending) {
        plus_digits = 0;
        plus_pending = 0;
      }
      g.count++;
      g.chained++;
      /* Cards: groups joined by one space or dash, from a group no word, dot, comma or dash precedes. */
      int joined = g.chained > 1 && gap == 1 && (last == SPACE || last == DASH);
      if (!joined) card_digits = -1;
      if (card_digits >= 0) card_digits += len;
      else if (leading >= 2 && leading <= 6 && clean(&g, 0, WISP_CC_BEFORE_CARD)) card_digits = len;
      if (card_digits >= card_digits_min) *bits |= CARD_BIT;
      if (plus_digits >= 0) {
        plus_digits += len;
        if (plus_digits >= plus_digits_min) *bits |= PHONE_BIT;
      }
      check_layouts(&g, bits);
      gap = 0;
      first = 0;
      last = 0;
      continue;
    }
    if (!has(cc, c, WISP_CC_DIGIT_JOIN)) break;
    if (gap == 0) first = c;
    gap++;
    last = c;
    if (c == PLUS) plus_pending = 1;
    j++;
  }
}

static int32_t digit_value(const uint8_t *b, int32_t from, int32_t to) {
  int32_t value = 0;
  for (int32_t j = from; j < to; j++) value = value * 10 + b[j] - '0';
  return value;
}

/*
 * The run of digits and joining characters from `i` (its first digit), handed to
 * digit_groups only when its groups could make a layout. First test: enough digits for a
 * card, enough after a `+`, three dots, five pairs, or two groups of three or more digits
 * and a national number's digits in all. Then, but for a `+`, each `may` below: what one
 * layout needs of its groups' lengths, gaps and leading digits, less than digit_groups
 * checks (no lookbehind but before a card's first group), so every run where digit_groups
 * finds that layout goes on. Dates, times, ids and private addresses rarely do.
 */
static void digit_run(const scan *x, int32_t i, int32_t *bits) {
  const uint8_t *b = x->b;
  const uint32_t *cc = x->t->cc;
  const int32_t *head = x->t->head;
  const int32_t card_digits_min = head[WISP_SCAN_CARD_DIGITS], plus_digits_min = head[WISP_SCAN_PLUS_DIGITS];
  const int32_t quad_dots = head[WISP_SCAN_QUAD_DOTS], national_digits = head[WISP_SCAN_NATIONAL_DIGITS], pairs_min = head[WISP_SCAN_PAIRS];
  int32_t start = x->start, end = x->end;
  int32_t j = i;
  int32_t digits = 0, dots = 0;
  int plus = i > start && b[i - 1] == PLUS;
  int32_t after_plus = 0; /* digits after the run's first `+`: the `+` layout counts from a `+` */
  int32_t longs = 0, pairs = 0;
  int may = 0;
  int32_t chain = 0; /* groups joined by gaps of at most two characters, as digit_groups chains them */
  int32_t prev_length = 0, prev_before = 0, prev_leading = -1;
  int32_t card_digits = -1;
  int32_t quad = 0;
  int32_t value1 = 0, value2 = 0, value3 = 0; /* the values of the last three groups of at most three digits, latest first */
  int32_t pair_run = 0;
  int32_t gap = 0;      /* the characters between the previous group and this one */
  int32_t single = -1;  /* the one character before this group, -1 when the gap is not one character */
  int32_t prev_single = -1;
  int32_t prev_gap_first = -1; /* the first character before the previous group */
  int32_t gap_first = -1;
  for (int first = 1;; first = 0) {
    int32_t group_start = j;
    int32_t leading = b[j] - '0';
    while (j < end && has(cc, b[j], WISP_CC_DIGIT)) j++;
    int32_t length = j - group_start;
    digits += length;
    if (plus) after_plus += length;
    if (length >= 3) longs++;
    else if (length == 2) pairs++;
    chain = first || gap > 2 ? 1 : chain + 1;
    /* Cards: groups joined by one space or dash, from a group starting with 2-6 (the first one not after a word, `.`, `,` or `-`). */
    int card_start = leading >= 2 && leading <= 6 && (!first || i == start || (!has(cc, b[i - 1], WISP_CC_WORD) && !has(cc, b[i - 1], WISP_CC_BEFORE_CARD)));
    card_digits = (single == SPACE || single == DASH) && card_digits >= 0 ? card_digits + length : card_start ? length : -1;
    /* a.b.c.d, public by a and b */
    quad = length <= 3 ? (single == DOT && quad > 0 ? quad + 1 : 1) : 0;
    if (quad >= 4 && public_prefix(value3, value2)) may = 1;
    if (length <= 3) {
      value3 = value2;
      value2 = value1;
      value1 = digit_value(b, group_start, j);
    }
    /* 0d dd dd dd dd */
    pair_run = length == 2 ? ((single == SPACE || single == DOT) && pair_run > 0 ? pair_run + 1 : 1) : 0;
    if (card_digits >= card_digits_min || pair_run >= pairs_min) may = 1;
    /* SSN 3-2-4, (ddd) ddd-dddd, ddd-ddd-dddd, 0dd ddd ddd: three chained groups, one space
       or dash before the last; with a dot, only ddd.ddd.dddd and (ddd) ddd.dddd. */
    else if (chain >= 3 && length >= 3 && length <= 4 && prev_length >= 2 && prev_length <= 4 && prev_before >= 2 && prev_before <= 5) {
      if (single == SPACE || single == DASH) may = 1;
      else if (single == DOT && ((prev_before == 3 && prev_length == 3 && length == 4 && prev_single == DOT) || (prev_gap_first == CLOSE && prev_length >= 3))) may = 1;
    }
    /* 0ddd dddddd(dd) */
    else if (chain >= 2 && length >= 6 && length <= 8 && prev_length >= 3 && prev_length <= 5 && prev_leading == 0 && (single == SPACE || single == DASH)) may = 1;
    prev_before = prev_length;
    prev_length = length;
    prev_leading = leading;
    /* The gap to the next group, if there is one. */
    int32_t gap_from = j;
    for (; j < end && has(cc, b[j], WISP_CC_DIGIT_JOIN); j++) {
      if (b[j] == DOT) dots++;
      else if (b[j] == PLUS) plus = 1;
    }
    if (j >= end || !has(cc, b[j], WISP_CC_DIGIT)) break;
    prev_single = single;
    prev_gap_first = gap_first;
    gap = j - gap_from;
    single = gap == 1 ? b[gap_from] : -1;
    gap_first = b[gap_from];
  }
  int with_plus = after_plus >= plus_digits_min;
  int first_test = with_plus || digits >= card_digits_min || dots >= quad_dots || pairs >= pairs_min || (longs >= 2 && digits >= national_digits);
  if (first_test && (with_plus || may)) digit_groups(x, i, bits);
}

/* ---------- shapes ---------- */

/* A `\n`, `\r` or `\t` escape at `i`. */
static inline int is_escape(const uint8_t *b, int32_t i, int32_t end) {
  return b[i] == BACKSLASH && i + 1 < end && (b[i + 1] == 'n' || b[i + 1] == 'r' || b[i + 1] == 't');
}

/* Where the digit-join run holding `at` has its first digit. */
static int32_t first_digit_of_run(const scan *x, int32_t at) {
  const uint32_t *cc = x->t->cc;
  int32_t j = at;
  while (j > x->start && has(cc, x->b[j - 1], WISP_CC_DIGIT | WISP_CC_DIGIT_JOIN)) j--;
  while (j < at && !has(cc, x->b[j], WISP_CC_DIGIT)) j++;
  return j;
}

/*
 * Whether the token run from `from` (bytes of base64 or `[A-Za-z0-9_-]`) holds a run of
 * BASE64_RUN or more base64 characters with upper case, lower case and a digit (or `+`,
 * `/`). An escape's letter (`\n`) starts no base64 run: the rules see it as whitespace.
 */
static int base64_runs(const scan *x, int32_t from) {
  const uint8_t *b = x->b;
  const uint32_t *cc = x->t->cc;
  int32_t end = x->end;
  int32_t min = x->t->head[WISP_SCAN_BASE64_RUN];
  int32_t j = from;
  if (j > x->start && is_escape(b, j - 1, end)) j++;
  while (j < end && has(cc, b[j], WISP_CC_BASE64 | WISP_CC_WORD_DASH)) {
    int upper = 0, lower = 0, other = 0;
    int32_t run_start = j;
    for (; j < end && has(cc, b[j], WISP_CC_BASE64); j++) {
      uint32_t k = cc[b[j]];
      if (k & WISP_CC_UPPER) upper = 1;
      else if (k & WISP_CC_LOWER) lower = 1;
      else other = 1;
    }
    if (j - run_start >= min && upper && lower && other) return 1;
    if (j < end && has(cc, b[j], WISP_CC_WORD_DASH)) j++; /* `_` or `-`: in the token run, not in base64 */
  }
  return 0;
}

/* `count` bytes of class `bit` right before `at`. */
static int run_before(const scan *x, int32_t at, uint32_t bit, int32_t count) {
  if (at - count < x->start) return 0;
  for (int32_t j = at - 1; j >= at - count; j--)
    if (!has(x->t->cc, x->b[j], bit)) return 0;
  return 1;
}

/* An IBAN start at `p`: a country's capitals and two digits, then enough capitals and digits (single spaces allowed). */
static int iban_at(const scan *x, int32_t p) {
  const uint8_t *b = x->b;
  int32_t expected = x->t->iban_length[(b[p] - 'A') * 26 + b[p + 1] - 'A'];
  if (expected == 0) return 0;
  int32_t count = 0, spaces = 0;
  for (int32_t j = p; j < x->end && count < expected; j++) {
    uint32_t k = x->t->cc[b[j]];
    if (k & (WISP_CC_UPPER | WISP_CC_DIGIT)) {
      count++;
      spaces = 0;
    } else if (b[j] == SPACE && spaces == 0) spaces++;
    else break;
  }
  return count >= expected;
}

/* An IBAN may start two bytes before the digit at `i`: two capitals, two digits, not inside a longer word. */
static int iban_start(const scan *x, int32_t i) {
  const uint8_t *b = x->b;
  const uint32_t *cc = x->t->cc;
  if (!(i - 2 >= x->start && i + 1 < x->end && has(cc, b[i - 1], WISP_CC_UPPER) && has(cc, b[i - 2], WISP_CC_UPPER) && has(cc, b[i + 1], WISP_CC_DIGIT) &&
        (i - 3 < x->start || !has(cc, b[i - 3], WISP_CC_ALNUM))))
    return 0;
  return iban_at(x, i - 2);
}

/* The whole text is one line of base64 with a run of 8+ characters of two kinds or more. */
static int key_material_line(const scan *x) {
  const uint32_t *cc = x->t->cc;
  int32_t run = 0, kinds = 0;
  int best = 0;
  for (int32_t j = x->start; j < x->end; j++) {
    uint32_t k = cc[x->b[j]];
    if (!(k & WISP_CC_KEY_LINE)) return 0;
    if (k & WISP_CC_BASE64) {
      run++;
      kinds |= k & WISP_CC_UPPER ? 1 : k & WISP_CC_LOWER ? 2 : 4;
      if (run >= 8 && (kinds == 3 || kinds == 5 || kinds == 6 || kinds == 7)) best = 1;
    } else {
      run = 0;
      kinds = 0;
    }
  }
  return best;
}

/* ---------- contexts ---------- */

/* The first index at or after `from` (below `limit`) whose byte is not of class `bit`. */
static inline int32_t skip(const scan *x, int32_t from, int32_t limit, uint32_t bit) {
  int32_t j = from;
  while (j < limit && has(x->t->cc, x->b[j], bit)) j++;
  return j;
}

static inline int32_t skip_back(const scan *x, int32_t from, int32_t floor, uint32_t bit) {
  int32_t j = from;
  while (j > floor && has(x->t->cc, x->b[j - 1], bit)) j--;
  return j;
}

static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }

/* `<` or `</` ends right before `at` (after start): a tag's name begins there. */
static int tag_opens_before(const scan *x, int32_t at) {
  if (at <= x->start) return 0;
  return x->b[at - 1] == '<' || (x->b[at - 1] == '/' && at - 1 > x->start && x->b[at - 2] == '<');
}

/* Where the run of class `bit` holding `at` begins, or -1 when it reaches further back than `max`. */
static int32_t ident_start(const scan *x, int32_t at, uint32_t bit, int32_t max) {
  int32_t floor = max32(x->start, at - max);
  int32_t j = skip_back(x, at, floor, bit);
  if (j == floor && j > x->start && has(x->t->cc, x->b[j - 1], bit)) return -1;
  return j;
}

/* The bytes just before `at` spell `word` (lower case; matched case-insensitively) and no letter or digit precedes it. */
static int ends_with_word(const scan *x, int32_t at, const char *word, int32_t length) {
  int32_t from = at - length;
  if (from < x->start) return 0;
  for (int32_t k = 0; k < length; k++)
    if ((x->b[from + k] | 0x20) != (uint8_t)word[k]) return 0;
  return from == x->start || !has(x->t->cc, x->b[from - 1], WISP_CC_ALNUM);
}

/* An identifier with a `_`, `.` or `-`, or a lower-case letter before a capital. */
static int compound(const scan *x, int32_t from, int32_t to) {
  for (int32_t j = from; j < to; j++) {
    uint8_t c = x->b[j];
    if (c == '_' || c == '.' || c == '-') return 1;
    if (j > from && has(x->t->cc, c, WISP_CC_UPPER) && has(x->t->cc, x->b[j - 1], WISP_CC_LOWER)) return 1;
  }
  return 0;
}

static inline int is_quote(uint8_t c) { return c == '"' || c == '\''; }

static int context_holds(scan *x, int32_t code, int32_t param, int32_t kw_start, int32_t kw_end) {
  const uint8_t *b = x->b;
  const uint32_t *cc = x->t->cc;
  int32_t start = x->start, end = x->end;
  switch (code) {
    case WISP_SCAN_CONTEXT_ANY:
      return 1;
    case WISP_SCAN_CONTEXT_ASSIGN: {
      int32_t j = skip(x, kw_end, min32(end, kw_end + 40), WISP_CC_IDENT);
      if (j < end && b[j] == BACKSLASH) j++;
      if (j < end && is_quote(b[j])) j++;
      if (j < end && b[j] == ']') j++;
      j = skip(x, j, min32(end, j + 4), WISP_CC_BLANK);
      return j < end && (b[j] == '=' || b[j] == ':');
    }
    case WISP_SCAN_CONTEXT_FLAG: {
      int32_t from = ident_start(x, kw_start, WISP_CC_WORD_DASH, 42);
      if (from < 0 || b[from] != '-') return 0;
      int32_t j = skip(x, kw_end, min32(end, kw_end + 40), WISP_CC_WORD_DASH);
      return j < end && has(cc, b[j], WISP_CC_BLANK);
    }
    case WISP_SCAN_CONTEXT_SPACED: {
      /* The key is an identifier (`aws_secret_access_key`, `apiToken`), not a word of prose. */
      int32_t from = ident_start(x, kw_start, WISP_CC_IDENT, 40);
      int32_t j = skip(x, kw_end, min32(end, kw_end + 40), WISP_CC_IDENT);
      if (from < 0 || !compound(x, from, j)) return 0;
      int32_t blanks = j;
      j = skip(x, j, min32(end, j + 4), WISP_CC_BLANK);
      if (j == blanks) return 0;
      if (j < end && is_quote(b[j])) j++;
      return skip(x, j, min32(end, j + 16), WISP_CC_TOKEN) - j >= 16;
    }
    case WISP_SCAN_CONTEXT_LINE: {
      int32_t from = ident_start(x, kw_start, WISP_CC_IDENT, 40);
      if (from < 0) return 0;
      /* Before the key: blanks and at most one short word (`ENV`, `export`, `set`), then the line start. */
      int32_t j = from;
      int32_t floor = max32(start, from - 16);
      while (j > floor && has(cc, b[j - 1], WISP_CC_BLANK | WISP_CC_UPPER | WISP_CC_LOWER)) j--;
      if (j > start && b[j - 1] != '\n') return 0;
      /* After it: blanks, one word, blanks, the line end. */
      int32_t k = skip(x, kw_end, min32(end, kw_end + 40), WISP_CC_IDENT);
      int32_t blanks = k;
      k = skip(x, k, min32(end, k + 8), WISP_CC_BLANK);
      if (k == blanks || k >= end) return 0;
      int32_t word = k;
      while (k < end && k - word < 512 && b[k] > 32) k++;
      k = skip(x, k, end, WISP_CC_BLANK);
      return k >= end || b[k] == '\r' || b[k] == '\n';
    }
    case WISP_SCAN_CONTEXT_QUOTE: {
      int32_t j = skip(x, kw_end, min32(end, kw_end + 4), WISP_CC_BLANK);
      return j > kw_end && j < end && is_quote(b[j]);
    }
    case WISP_SCAN_CONTEXT_XML: {
      /* A tag's name: `<password`, `</password`, or after a namespace, `<ns:ApiKey` (a
         subsystem's `[com.apple.apsd:connection]` has a colon but no tag). */
      int32_t from = ident_start(x, kw_start, WISP_CC_IDENT, 64);
      if (tag_opens_before(x, from)) return 1;
      if (from <= start || b[from - 1] != ':') return 0;
      int32_t ns = ident_start(x, from - 1, WISP_CC_WORD_DASH, 30);
      return ns < from - 1 && tag_opens_before(x, ns);
    }
    case WISP_SCAN_CONTEXT_NAMED: {
      int32_t from = ident_start(x, kw_start, WISP_CC_IDENT, 64);
      if (from < 0) return 0;
      int32_t j = from;
      if (j > start && is_quote(b[j - 1])) j--;
      j = skip_back(x, j, max32(start, j - 4), WISP_CC_BLANK);
      if (j <= start || (b[j - 1] != '=' && b[j - 1] != ':')) return 0;
      j--;
      if (j > start && is_quote(b[j - 1])) j--;
      j = skip_back(x, j, max32(start, j - 4), WISP_CC_BLANK);
      if (j > start && is_quote(b[j - 1])) j--;
      return ends_with_word(x, j, "name", 4) || ends_with_word(x, j, "key", 3);
    }
    case WISP_SCAN_CONTEXT_URL_AT: {
      if (kw_end < x->url_no_at_before) return 0;
      int32_t limit = min32(end, kw_end + 2048);
      for (int32_t j = kw_end; j < limit; j++) {
        if (b[j] == '@') return 1;
        if (has(cc, b[j], WISP_CC_URL_STOP)) {
          x->url_no_at_before = j;
          return 0;
        }
      }
      return limit < end; /* a very long authority: let the rules decide */
    }
    case WISP_SCAN_CONTEXT_EMAIL: {
      if (kw_start <= start || !has(cc, b[kw_start - 1], WISP_CC_EMAIL_LOCAL)) return 0;
      int dot = 0;
      int32_t letters = 0;
      for (int32_t j = kw_end; j < end && has(cc, b[j], WISP_CC_DOMAIN); j++) {
        if (b[j] == '.') {
          dot = 1;
          letters = 0;
        } else if (dot && has(cc, b[j], WISP_CC_UPPER | WISP_CC_LOWER)) {
          if (++letters >= 2) return 1;
        } else letters = 0;
      }
      return 0;
    }
    case WISP_SCAN_CONTEXT_SCHEME: {
      int32_t j = skip(x, kw_end, min32(end, kw_end + 4), WISP_CC_BLANK);
      return j > kw_end && skip(x, j, min32(end, j + param), WISP_CC_TOKEN) - j >= param;
    }
    case WISP_SCAN_CONTEXT_TAIL:
      return skip(x, kw_end, min32(end, kw_end + param), WISP_CC_TOKEN) - kw_end >= param;
    case WISP_SCAN_CONTEXT_VENDOR: {
      int32_t run = 0;
      for (int32_t j = kw_end, limit = min32(end, kw_end + 256); j < limit; j++) {
        if (has(cc, b[j], WISP_CC_TOKEN)) {
          if (++run >= 16) return 1;
        } else run = 0;
      }
      return 0;
    }
    default:
      return 1;
  }
}

/* ---------- signals ---------- */

/* Records a signal; true when the scan may stop (a sufficient signal, not collecting). */
static int raise_signal(const scan *x, int32_t signal) {
  if (signal < 0) return 0;
  const tables *t = x->t;
  t->stamp[signal] = x->generation;
  if (t->sufficient[signal]) return !x->collect;
  /* A part: its conditions may now hold whole. */
  if (x->collect) return 0;
  for (int32_t c = t->conj_of_start[signal]; c < t->conj_of_end[signal]; c++) {
    int32_t id = t->conj_ids[c];
    int all = 1;
    for (int32_t p = t->part_start[id]; p < t->part_end[id]; p++)
      if (t->stamp[t->parts[p]] != x->generation) all = 0;
    if (all) return 1;
  }
  return 0;
}

static int hits(scan *x, int32_t hit_state, int32_t i) {
  const tables *t = x->t;
  for (int32_t e = t->hit_start[hit_state], stop = t->hit_end[hit_state]; e < stop; e++) {
    int32_t signal = t->entry_signal[e];
    if (t->stamp[signal] == x->generation) continue;
    int32_t kw_end = i + 1;
    int32_t kw_start = kw_end - t->entry_length[e];
    if (context_holds(x, t->entry_context[e], t->entry_param[e], kw_start, kw_end) && raise_signal(x, signal)) return 1;
  }
  return 0;
}

static int digit_shapes(const scan *x, int32_t bits) {
  const int32_t *shapes = x->t->shape_signal;
  if (bits & CARD_BIT && raise_signal(x, shapes[WISP_SCAN_SHAPE_CARD])) return 1;
  if (bits & SSN_BIT && raise_signal(x, shapes[WISP_SCAN_SHAPE_SSN])) return 1;
  if (bits & PHONE_BIT && raise_signal(x, shapes[WISP_SCAN_SHAPE_PHONE])) return 1;
  return (bits & IPV4_BIT) != 0 && raise_signal(x, shapes[WISP_SCAN_SHAPE_IPV4]);
}

/*
 * The scan. collect: stamp every signal raised. Otherwise stop at the first sufficient
 * signal, or the part that completes an `all` condition.
 */
static int run_scan(scan *x) {
  const tables *t = x->t;
  const uint8_t *b = x->b;
  const int32_t end = x->end;
  const uint32_t *rows = t->keyword_rows;
  const uint16_t *classes = t->classes, *run_rows = t->run_rows;
  const uint32_t first_hit_row = t->first_hit_row, first_event_row = t->first_event_row;
  const int32_t *head = t->head;
  uint32_t state = 0, runs = 0; /* both automata's states, as their rows' offsets */
  for (int32_t i = x->start; i < end; i++) {
    for (; i < end; i++) {
      uint32_t c = classes[b[i]];
      state = rows[state | (c & 0xff)];
      runs = run_rows[runs | (c >> 8)];
      if (state >= first_hit_row || runs >= first_event_row) break;
    }
    if (i == end) break;
    if (state >= first_hit_row && hits(x, (int32_t)(state >> t->keyword_shift) - t->first_hit, i)) return 1;
    if (runs < first_event_row) continue;
    uint32_t events = t->run_events[(runs >> t->run_shift) - (uint32_t)t->first_event];
    if (events & WISP_SCAN_EVENT_ESCAPE) {
      /* `\n`, `\r`, `\t` escapes: the rules see the letter as whitespace (escapes.ts), so does
         the keyword scan; the runs count it as the letter it is (no event can follow). */
      if (is_escape(b, i, end)) {
        state = 0;
        i++;
        runs = run_rows[runs | (classes[b[i]] >> 8)];
      }
      continue;
    }
    const int32_t *shapes = t->shape_signal;
    if (events & WISP_SCAN_EVENT_BASE64 && base64_runs(x, i + 1 - head[WISP_SCAN_BASE64_RUN]) && raise_signal(x, shapes[WISP_SCAN_SHAPE_BASE64])) return 1;
    if (events & WISP_SCAN_EVENT_HEX_DASH && run_before(x, i, WISP_CC_HEX, head[WISP_SCAN_HEX_RUN]) && raise_signal(x, shapes[WISP_SCAN_SHAPE_HEX32_DASH])) return 1;
    if (events & WISP_SCAN_EVENT_TOKEN_DOT && run_before(x, i, WISP_CC_WORD_DASH, head[WISP_SCAN_TOKEN_DOT_RUN]) && raise_signal(x, shapes[WISP_SCAN_SHAPE_TOKEN_DOT])) return 1;
    if (events & WISP_SCAN_EVENT_IBAN && iban_start(x, i) && raise_signal(x, shapes[WISP_SCAN_SHAPE_IBAN])) return 1;
    if (events & WISP_SCAN_EVENT_DIGITS) {
      int32_t bits = 0;
      digit_run(x, first_digit_of_run(x, i), &bits);
      if (bits != 0 && digit_shapes(x, bits)) return 1;
    }
  }
  if (end - x->start <= 256 && key_material_line(x) && raise_signal(x, t->shape_signal[WISP_SCAN_SHAPE_KEY_MATERIAL_LINE])) return 1;
  return 0;
}

/* ---------- the block ---------- */

/* The tables at the block's offsets; 0 when the block is not one this file can read. */
static int tables_of(int32_t *block, tables *t) {
  if (block == 0 || block[WISP_SCAN_LAYOUT_WORD] != WISP_SCAN_LAYOUT || block[WISP_SCAN_BYTES] < WISP_SCAN_HEAD * 4) return 0;
  uint8_t *base = (uint8_t *)block;
  int32_t bytes = block[WISP_SCAN_BYTES];
  static const int arrays[] = {WISP_SCAN_KEYWORD_ROWS, WISP_SCAN_CLASSES,      WISP_SCAN_RUN_ROWS,      WISP_SCAN_RUN_EVENTS,    WISP_SCAN_HIT_START,
                               WISP_SCAN_HIT_END,      WISP_SCAN_ENTRY_CONTEXT, WISP_SCAN_ENTRY_PARAM,  WISP_SCAN_ENTRY_SIGNAL,  WISP_SCAN_ENTRY_LENGTH,
                               WISP_SCAN_SUFFICIENT,   WISP_SCAN_SHAPE_SIGNAL, WISP_SCAN_CONJ_OF_START, WISP_SCAN_CONJ_OF_END,   WISP_SCAN_CONJ_IDS,
                               WISP_SCAN_PART_START,   WISP_SCAN_PART_END,     WISP_SCAN_PARTS,         WISP_SCAN_STAMP,         WISP_SCAN_CHAR_CLASS,
                               WISP_SCAN_IBAN_LENGTH};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
    int32_t at = block[arrays[k]];
    if (at < WISP_SCAN_HEAD * 4 || at > bytes || at % 4 != 0) return 0;
  }
  t->head = block;
  t->keyword_rows = (const uint32_t *)(base + block[WISP_SCAN_KEYWORD_ROWS]);
  t->keyword_shift = block[WISP_SCAN_KEYWORD_SHIFT];
  t->first_hit = block[WISP_SCAN_FIRST_HIT];
  t->first_hit_row = (uint32_t)block[WISP_SCAN_FIRST_HIT] << block[WISP_SCAN_KEYWORD_SHIFT];
  t->classes = (const uint16_t *)(base + block[WISP_SCAN_CLASSES]);
  t->run_rows = (const uint16_t *)(base + block[WISP_SCAN_RUN_ROWS]);
  t->run_shift = block[WISP_SCAN_RUN_SHIFT];
  t->first_event = block[WISP_SCAN_FIRST_EVENT];
  t->first_event_row = (uint32_t)block[WISP_SCAN_FIRST_EVENT] << block[WISP_SCAN_RUN_SHIFT];
  t->run_events = base + block[WISP_SCAN_RUN_EVENTS];
  t->hit_start = (const int32_t *)(base + block[WISP_SCAN_HIT_START]);
  t->hit_end = (const int32_t *)(base + block[WISP_SCAN_HIT_END]);
  t->entry_context = (const int8_t *)(base + block[WISP_SCAN_ENTRY_CONTEXT]);
  t->entry_param = (const int32_t *)(base + block[WISP_SCAN_ENTRY_PARAM]);
  t->entry_signal = (const int32_t *)(base + block[WISP_SCAN_ENTRY_SIGNAL]);
  t->entry_length = (const int32_t *)(base + block[WISP_SCAN_ENTRY_LENGTH]);
  t->sufficient = base + block[WISP_SCAN_SUFFICIENT];
  t->shape_signal = (const int32_t *)(base + block[WISP_SCAN_SHAPE_SIGNAL]);
  t->conj_of_start = (const int32_t *)(base + block[WISP_SCAN_CONJ_OF_START]);
  t->conj_of_end = (const int32_t *)(base + block[WISP_SCAN_CONJ_OF_END]);
  t->conj_ids = (const int32_t *)(base + block[WISP_SCAN_CONJ_IDS]);
  t->part_start = (const int32_t *)(base + block[WISP_SCAN_PART_START]);
  t->part_end = (const int32_t *)(base + block[WISP_SCAN_PART_END]);
  t->parts = (const int32_t *)(base + block[WISP_SCAN_PARTS]);
  t->stamp = (int32_t *)(base + block[WISP_SCAN_STAMP]);
  t->cc = (const uint32_t *)(base + block[WISP_SCAN_CHAR_CLASS]);
  t->iban_length = base + block[WISP_SCAN_IBAN_LENGTH];
  return 1;
}

static int scan_range(const tables *t, const uint8_t *buf, int32_t start, int32_t end, int collect) {
  int32_t generation = t->head[WISP_SCAN_GENERATION] + 1;
  if (generation <= 0) {
    /* After 2^31 scans: stamps from the last round could equal a new generation. */
    for (int32_t s = 0; s < t->head[WISP_SCAN_SIGNALS]; s++) t->stamp[s] = 0;
    generation = 1;
  }
  t->head[WISP_SCAN_GENERATION] = generation;
  scan x = {.t = t, .b = buf, .start = start, .end = end, .generation = generation, .collect = collect, .url_no_at_before = start};
  return run_scan(&x);
}

int32_t wisp_redact_scan(int32_t *block, const uint8_t *buf, int32_t len, int32_t start, int32_t end, int32_t collect) {
  tables t;
  if (!tables_of(block, &t) || start < 0 || end < start || end > len || (buf == 0 && len > 0)) return -WISP_ERR_ARGUMENT;
  return scan_range(&t, buf, start, end, collect != 0);
}

int32_t wisp_redact_screen_lines(int32_t *block, const uint8_t *buf, int32_t len, int32_t start, int32_t end, uint8_t *out, int32_t out_len) {
  tables t;
  if (!tables_of(block, &t) || start < 0 || end < start || end > len || (buf == 0 && len > 0) || (out == 0 && out_len > 0)) return -WISP_ERR_ARGUMENT;
  int32_t lines = 0;
  for (int32_t s = start; s < end;) {
    const uint8_t *found = memchr(buf + s, '\n', (size_t)(end - s));
    int32_t nl = found == 0 ? end : (int32_t)(found - buf);
    int32_t e = nl;
    if (e > s && buf[e - 1] == '\r') e--;
    if (lines >= out_len) return -WISP_ERR_ARGUMENT;
    out[lines++] = (uint8_t)scan_range(&t, buf, s, e, 0);
    s = nl + 1;
  }
  return lines;
}
