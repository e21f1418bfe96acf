import { connect } from 'node:net';
import { WispError } from '../core/errors.js';
import type { ClusterTarget } from './connection.js';

/**
 * Asks the server a PING before BullMQ connects. BullMQ's connection retries forever, as a
 * worker must once it runs, so a wrong address would otherwise hang `wisp cluster` with no
 * word. Any reply of Redis's protocol counts (`+PONG`, or `-NOAUTH` before BullMQ
 * authenticates); a refusal, silence past the timeout or another protocol is an error
 * naming the address.
 */
export function reachRedis(target: ClusterTarget, timeoutMs: number): Promise<void> {
  const { host, port } = target.connection;
  const where = `Redis at ${host}:${port}`;
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (message: string, cause?: unknown): void => {
      socket.destroy();
      reject(new WispError('WISP_UNAVAILABLE', message, { hint: 'check --redis, and that the server runs and is reachable from here', cause }));
    };
    socket.setTimeout(timeoutMs, () => fail(`${where} did not answer within ${timeoutMs / 1000} s`));
    socket.once('error', (err: NodeJS.ErrnoException) => fail(`${where} cannot be reached: ${err.code ?? err.message}`, err));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (reply: Buffer) => {
      socket.destroy();
      const first = reply[0];
      if (first === 0x2b || first === 0x2d) resolve();
      else fail(`${where} answered, but not as Redis does`);
    });
  });
}
