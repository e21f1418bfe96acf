/** What has been read so far: a side channel, throttled, for progress bars and MCP progress. */
export interface ReadProgress {
  bytes: number;
  /** Where every input's size is known beforehand (not for gzip or stdin). */
  totalBytes: number | undefined;
  inputsDone: number;
  inputs: number;
}

/** Reports come every this many bytes read, and once at the end. */
export const PROGRESS_EVERY_BYTES = 4 * 1024 * 1024;

/** Counts the bytes read across a run's inputs and reports them now and then. */
export class ProgressMeter {
  readonly #report: ((p: ReadProgress) => void) | undefined;
  readonly #totalBytes: number | undefined;
  readonly #inputs: number;
  #read = 0;
  #next = PROGRESS_EVERY_BYTES;

  constructor(report: ((p: ReadProgress) => void) | undefined, totalBytes: number | undefined, inputs: number) {
    this.#report = report;
    this.#totalBytes = totalBytes;
    this.#inputs = inputs;
  }

  /** Passes `chunks` on, counting them as input `input`'s (0-based); `onBytes` sees each chunk's size. */
  async *count(chunks: AsyncIterable<Buffer>, input: number, onBytes: (n: number) => void): AsyncGenerator<Buffer> {
    for await (const b of chunks) {
      onBytes(b.length);
      this.add(b.length, input);
      yield b;
    }
  }

  /** Counts `bytes` more of input `input` (0-based) as read. */
  add(bytes: number, input: number): void {
    this.#read += bytes;
    if (this.#report !== undefined && this.#read >= this.#next) {
      this.#next = this.#read + PROGRESS_EVERY_BYTES;
      this.#report({ bytes: this.#read, totalBytes: this.#totalBytes, inputsDone: input, inputs: this.#inputs });
    }
  }

  /** The last report: every input done. */
  done(): void {
    this.#report?.({ bytes: this.#read, totalBytes: this.#totalBytes, inputsDone: this.#inputs, inputs: this.#inputs });
  }
}
