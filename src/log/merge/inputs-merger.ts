import type { LogPartial } from '../model/partial.js';
import type { InputRead } from '../model/result.js';
import type { MergedLog } from '../model/state.js';
import type { LogItem } from '../read/log-inputs.js';
import { LogMerger } from './log-merger.js';

/**
 * Merges a run's chunk partials strictly in input order, each input into a merger of its
 * own, folded into the whole when the input ends (setting its line numbers), or dropped
 * and named when it failed: an input that fails half-way leaves nothing of itself behind.
 */
export class InputsMerger {
  readonly #whole = new LogMerger();
  readonly #inputs: InputRead[];
  #current: { input: number; merger: LogMerger } | undefined;
  /** Inputs that could not be read, and why. */
  readonly skipped: { name: string; reason: string }[] = [];

  constructor(inputs: InputRead[]) {
    this.#inputs = inputs;
  }

  /** The next item, with its chunk's partial. */
  take(item: LogItem, partial: LogPartial | undefined): void {
    if (this.#current === undefined || this.#current.input !== item.input) this.#current = { input: item.input, merger: new LogMerger() };
    const input = this.#inputs[item.input]!;
    const whole = this.#whole;
    if (item.kind === 'chunk') {
      this.#current.merger.add(partial!);
      return;
    }
    if (item.kind === 'crash') {
      // Its lines count in the whole (line numbers run on), in no group.
      whole.startInput();
      input.firstLine = whole.lines + 1;
      whole.add({ lines: item.lines, skipped: item.lines, cut: 0, groups: [], last: null }, item.input);
    } else if (item.kind === 'end') {
      whole.startInput();
      input.firstLine = whole.lines + 1;
      whole.add(this.#current.merger.toPartial(), item.input);
      input.lines = whole.lines - input.firstLine + 1;
    } else {
      this.skipped.push({ name: input.name, reason: item.reason });
      input.skipped = true;
    }
    this.#current = undefined;
  }

  finish(): MergedLog {
    return this.#whole.finish();
  }
}
