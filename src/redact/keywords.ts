/**
 * The keyword pass that gitleaks and trufflehog run before their rules: one scan of the
 * text with an Aho-Corasick automaton over every rule's literals (case-insensitive, ASCII),
 * so that a rule's regex runs only when one of its keywords occurs. One pass over the
 * text, whatever the number of keywords.
 */

const ALPHABET = 128;

export class KeywordSet {
  readonly #keywords: readonly string[];
  /** Full transition table: `next[state * ALPHABET + char]`. */
  readonly #next: Int32Array;
  /** For each state, the ids of the keywords that end there (its own and via failure links). */
  readonly #outputs: readonly (readonly number[])[];

  constructor(keywords: readonly string[]) {
    this.#keywords = keywords;
    const goto: Map<number, number>[] = [new Map()];
    const ends: number[][] = [[]];
    keywords.forEach((keyword, id) => {
      let state = 0;
      for (const ch of keyword.toLowerCase()) {
        const code = ch.charCodeAt(0);
        if (code >= ALPHABET) throw new RangeError(`keyword ${JSON.stringify(keyword)} is not ASCII`);
        let target = goto[state]!.get(code);
        if (target === undefined) {
          target = goto.length;
          goto.push(new Map());
          ends.push([]);
          goto[state]!.set(code, target);
        }
        state = target;
      }
      ends[state]!.push(id);
    });

    // Breadth-first: failure links, then the full table with failures folded in.
    const next = new Int32Array(goto.length * ALPHABET);
    const fail = new Int32Array(goto.length);
    const queue: number[] = [];
    for (let c = 0; c < ALPHABET; c++) {
      const target = goto[0]!.get(c) ?? 0;
      next[c] = target;
      if (target !== 0) queue.push(target);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[fail[state]!]!);
      for (let c = 0; c < ALPHABET; c++) {
        const target = goto[state]!.get(c);
        if (target === undefined) {
          next[state * ALPHABET + c] = next[fail[state]! * ALPHABET + c]!;
        } else {
          fail[target] = next[fail[state]! * ALPHABET + c]!;
          next[state * ALPHABET + c] = target;
          queue.push(target);
        }
      }
    }
    this.#next = next;
    this.#outputs = ends;
  }

  get size(): number {
    return this.#keywords.length;
  }

  /** Which keywords occur in `text`, as flags indexed by keyword id. */
  scan(text: string): Uint8Array {
    const found = new Uint8Array(this.#keywords.length);
    const next = this.#next;
    const outputs = this.#outputs;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      let code = text.charCodeAt(i);
      if (code >= 65 && code <= 90) code += 32;
      state = code < ALPHABET ? next[state * ALPHABET + code]! : 0;
      const out = outputs[state]!;
      for (let k = 0; k < out.length; k++) found[out[k]!] = 1;
    }
    return found;
  }
}
