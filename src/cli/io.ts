/** What a CLI command may touch: stdout for its result, stderr for everything else. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

export type CommandRunner = (args: string[], io: CliIo) => Promise<number>;
