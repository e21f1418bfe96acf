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

  // A state packed in one number (the fields of State, each in bits of its own), so that
  // exploring some thousands of states costs no allocation: this runs in every thread as
  // its code loads, before the JIT has warmed up.
  const TOKEN_CAP = spec.base64Run + 1;
  const pack = (token: number, upper: number, digits: number, dots: number, plus: boolean, events: number): number =>
    ((((token * 3 + upper) * (spec.digits + 2) + digits + 1) * (spec.dots + 1) + dots) * 2 + (plus ? 1 : 0)) * 64 + events;
  const feature = (k: number, f: number): number => classFeatures[k]![f]!;
  const step = (token0: number, upper0: number, digits0: number, dots0: number, plus0: boolean, k: number): number => {
    const token = feature(k, 0);
    const upper = feature(k, 1);
    const digit = feature(k, 2);
    const inDigitRun = feature(k, 3);
    const plus = feature(k, 4);
    const dash = feature(k, 5);
    const dot = feature(k, 6);
    const backslash = feature(k, 7);
    let events = 0;
    if (token && token0 + 1 === spec.base64Run) events |= RunEvent.Base64;
    if (dash && token0 >= spec.hexRun) events |= RunEvent.HexDash;
    if (dot && token0 >= spec.tokenDotRun) events |= RunEvent.TokenDot;
    if (digit && upper0 >= 2) events |= RunEvent.Iban;
    if (backslash) events |= RunEvent.Escape;
    let digits = 0;
    let dots = 0;
    let hasPlus = false;
    if (inDigitRun) {
      if (digits0 < 0) digits = -1;
      else {
        digits = Math.min(digits0 + digit, spec.digits);
        dots = Math.min(dots0 + (dot && digits0 > 0 ? 1 : 0), spec.dots);
        hasPlus = plus0 || plus === 1;
        if (digits >= spec.digits || dots >= spec.dots || (hasPlus && digits >= spec.digitsWithPlus)) {
          events |= RunEvent.Digits;
          digits = -1;
          dots = 0;
          hasPlus = false;
        }
      }
    }
    return pack(token ? Math.min(token0 + 1, TOKEN_CAP) : 0, upper ? Math.min(upper0 + 1, 2) : 0, digits, dots, hasPlus, events);
  };
  const unpack = (key: number): State => {
    let rest = key;
    const events = rest % 64;
    rest = (rest - events) / 64;
    const plus = rest % 2 === 1;
    rest = (rest - (plus ? 1 : 0)) / 2;
    const dots = rest % (spec.dots + 1);
    rest = (rest - dots) / (spec.dots + 1);
    const digits = (rest % (spec.digits + 2)) - 1;
    rest = (rest - digits - 1) / (spec.digits + 2);
    const upper = rest % 3;
    return { token: (rest - upper) / 3, upper, digits, dots, plus, events };
  };

  // Every reachable state, breadth first from the start of a range.
  const classes = classFeatures.length;
  const states: State[] = [unpack(pack(0, 0, 0, 0, false, 0))];
  const ids = new Map([[pack(0, 0, 0, 0, false, 0), 0]]);
  const targets: number[] = [];
  for (let s = 0; s < states.length; s++) {
    const { token, upper, digits, dots, plus } = states[s]!;
    for (let k = 0; k < classes; k++) {
      const key = step(token, upper, digits, dots, plus, k);
      let id = ids.get(key);
      if (id === undefined) {
        id = states.length;
        ids.set(key, id);
        states.push(unpack(key));
      }
      targets.push(id);
    }
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
    for (let k = 0; k < classes; k++) next[(renumber[s]! << shift) | k] = renumber[targets[s * classes + k]!]!;
    if (states[s]!.events !== 0) events[renumber[s]! - low] = states[s]!.events;
  }
  return { classOf, next, shift, firstEvent: low, events };
}
