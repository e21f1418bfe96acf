/**
 * Where a shape check could hold, found by a small automaton over byte classes that the
 * scan steps beside its keyword automaton (scan.ts). Most bytes of a log need nothing but
 * the keyword step: a shape only matters after enough bytes of a kind in a row. This
 * automaton counts those runs (capped) and enters an event state on the few bytes where a
 * check could hold; only there does the scan branch out and run the check itself. So a
 * line costs two table steps a byte and a handful of branches, not one per run of digits.
 *
 * Each event is a necessary condition of its check, stated with the check's own tables and
 * thresholds (passed in by scan.ts), so the checks see every place where they could hold.
 *
 * The runs counted, each from the range's start:
 * - token: bytes of base64 or `[A-Za-z0-9_-]` in a row (every base64, hex or word run lies in one);
 * - capitals in a row;
 * - a digit-join run (digits and joining characters): its digits, the dots after its first
 *   digit, and whether it holds a `+`.
 */

/** What a byte can start: the scan runs the matching checks. */
export const enum RunEvent {
  /** The token run reaches `base64Run` bytes: it may hold a long base64 run. */
  Base64 = 1,
  /** A `-` after `hexRun` token bytes: they may be hex. */
  HexDash = 2,
  /** A `.` after `tokenDotRun` token bytes. */
  TokenDot = 4,
  /** The digit-join run may pass the digit walk's first test; once a run. */
  Digits = 8,
  /** A digit after two capitals: an IBAN may start there. */
  Iban = 16,
  /** A backslash: an escape (`\n`) may follow. */
  Escape = 32,
}

export interface RunSpec {
  /** Base64 characters. */
  base64: Uint8Array;
  /** `[A-Za-z0-9_-]`. */
  wordDash: Uint8Array;
  digit: Uint8Array;
  upper: Uint8Array;
  /** Characters that join digit groups. */
  digitJoin: Uint8Array;
  base64Run: number;
  hexRun: number;
  tokenDotRun: number;
  /** A digit-join run is worth walking when it has this many digits, */
  digits: number;
  /** or this many and a `+`, */
  digitsWithPlus: number;
  /** or this many dots after its first digit. */
  dots: number;
}

export interface RunAutomaton {
  /** The class of each byte (bytes >= 0x80 are class 0, like any separator). */
  readonly classOf: Uint8Array;
  /** `next[(state << shift) | class]`. */
  readonly next: Uint16Array;
  readonly shift: number;
  /** States from this one are entered on an event. */
  readonly firstEvent: number;
  /** The events of state `firstEvent + k`, at `events[k]`. */
  readonly events: Uint8Array;
}

interface State {
  token: number;
  upper: number;
  /** Digits, dots and `+` of the digit-join run; -1 once its event has fired. */
  digits: number;
  dots: number;
  plus: boolean;
  events: number;
}

const PLUS = 0x2b;
const DASH = 0x2d;
const DOT = 0x2e;
const BACKSLASH = 0x5c;

export function buildRunAutomaton(spec: RunSpec): RunAutomaton {
  // Bytes alike in everything the counts read share a class.
  const features = (c: number): number[] => [
    spec.base64[c]! | spec.wordDash[c]!,
    spec.upper[c]!,
    spec.digit[c]!,
    spec.digit[c]! | spec.digitJoin[c]!,
    c === PLUS ? 1 : 0,
    c === DASH ? 1 : 0,
    c === DOT ? 1 : 0,
    c === BACKSLASH ? 1 : 0,
  ];
  const classKeys = new Map<string, number>([[features(0).join(), 0]]);
  const classFeatures: number[][] = [features(0)];
  const classOf = new Uint8Array(256);
  for (let c = 0; c < 128; c++) {
    const f = features(c);
    const key = f.join();
    let k = classKeys.get(key);
    if (k === undefined) {
      k = classFeatures.length;
      classKeys.set(key, k);
      classFeatures.push(f);
    }
    classOf[c] = k;
  }
  const shift = Math.ceil(Math.log2(classFeatures.length));

  const step = (s: State, k: number): State => {
    const [token, upper, digit, inDigitRun, plus, dash, dot, backslash] = classFeatures[k]!;
    let events = 0;
    if (token && s.token + 1 === spec.base64Run) events |= RunEvent.Base64;
    if (dash && s.token >= spec.hexRun) events |= RunEvent.HexDash;
    if (dot && s.token >= spec.tokenDotRun) events |= RunEvent.TokenDot;
    if (digit && s.upper >= 2) events |= RunEvent.Iban;
    if (backslash) events |= RunEvent.Escape;
    let digits = 0;
    let dots = 0;
    let hasPlus = false;
    if (inDigitRun) {
      if (s.digits < 0) digits = -1;
      else {
        digits = Math.min(s.digits + digit!, spec.digits);
        dots = Math.min(s.dots + (dot && s.digits > 0 ? 1 : 0), spec.dots);
        hasPlus = s.plus || plus === 1;
        if (digits >= spec.digits || dots >= spec.dots || (hasPlus && digits >= spec.digitsWithPlus)) {
          events |= RunEvent.Digits;
          digits = -1;
          dots = 0;
          hasPlus = false;
        }
      }
    }
    return {
      token: token ? Math.min(s.token + 1, spec.base64Run + 1) : 0,
      upper: upper ? Math.min(s.upper + 1, 2) : 0,
      digits,
      dots,
      plus: hasPlus,
      events,
    };
  };

  // Every reachable state, breadth first from the start of a range.
  const keyOf = (s: State): string => `${s.token},${s.upper},${s.digits},${s.dots},${s.plus},${s.events}`;
  const states: State[] = [{ token: 0, upper: 0, digits: 0, dots: 0, plus: false, events: 0 }];
  const ids = new Map([[keyOf(states[0]!), 0]]);
  const targets: number[][] = [];
  for (let s = 0; s < states.length; s++) {
    targets.push(
      classFeatures.map((_, k) => {
        const t = step(states[s]!, k);
        const key = keyOf(t);
        let id = ids.get(key);
        if (id === undefined) {
          id = states.length;
          ids.set(key, id);
          states.push(t);
        }
        return id;
      }),
    );
  }
  if (states.length > 0xffff) throw new RangeError('too many run states');
  // Event states last, so the scan tests one bound.
  const renumber = new Int32Array(states.length);
  let low = 0;
  for (let s = 0; s < states.length; s++) if (states[s]!.events === 0) renumber[s] = low++;
  let high = low;
  for (let s = 0; s < states.length; s++) if (states[s]!.events !== 0) renumber[s] = high++;
  const next = new Uint16Array(states.length << shift);
  const events = new Uint8Array(states.length - low);
  for (let s = 0; s < states.length; s++) {
    targets[s]!.forEach((t, k) => {
      next[(renumber[s]! << shift) | k] = renumber[t]!;
    });
    if (states[s]!.events !== 0) events[renumber[s]! - low] = states[s]!.events;
  }
  return { classOf, next, shift, firstEvent: low, events };
}
