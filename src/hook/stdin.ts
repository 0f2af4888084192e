/** Reading the whole of stdin without ever hanging the agent: bounded in size and in time. */
import * as fs from 'node:fs';
import * as net from 'node:net';

export interface StdinRead {
  /** The first `limit` bytes. */
  data: Buffer;
  /** Bytes seen in all (may exceed `data.length`). */
  totalBytes: number;
  /** Stdin was still open when the time ran out. */
  timedOut: boolean;
  error?: string;
}

/**
 * Resolve with what stdin held once it closes, or with what arrived so far after `timeoutMs`.
 *
 * A regular file is read with `fs.read` (cheapest). A pipe or socket - what an agent gives a hook - must
 * not be: a read blocked in libuv's thread pool keeps even `process.exit` waiting until the writer closes,
 * so a never-closing stdin would hang the hook. Those are read through a non-blocking socket instead
 * (a few milliseconds more to start), and anything else (a terminal) through `process.stdin`.
 */
export function readStdin(limit: number, timeoutMs: number): Promise<StdinRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    let done = false;
    const finish = (extra: { timedOut?: boolean; error?: string } = {}) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({
        data: Buffer.concat(chunks, kept),
        totalBytes: total,
        timedOut: extra.timedOut ?? false,
        ...(extra.error ? { error: extra.error } : {}),
      });
    };
    const timer = setTimeout(() => finish({ timedOut: true }), timeoutMs);
    const take = (chunk: Buffer) => {
      total += chunk.length;
      if (kept < limit) {
        const part = chunk.length <= limit - kept ? chunk : chunk.subarray(0, limit - kept);
        chunks.push(part);
        kept += part.length;
      }
    };

    const fromStream = () => {
      try {
        const stream = process.stdin;
        stream.on('data', (chunk: Buffer) => take(chunk));
        stream.on('end', () => finish());
        stream.on('error', (error) => finish({ error: error.message }));
      } catch (error) {
        finish({ error: (error as Error).message });
      }
    };

    const fromSocket = () => {
      try {
        // What process.stdin does for pipes, without loading the tty layer.
        const socket = new net.Socket({ fd: 0, readable: true, writable: false });
        socket.on('data', (chunk: Buffer) => take(chunk));
        socket.on('end', () => finish());
        socket.on('error', (error) => finish({ error: error.message }));
      } catch {
        fromStream();
      }
    };

    let kind: 'file' | 'socket' | 'other';
    try {
      const stat = fs.fstatSync(0);
      kind = stat.isFile() ? 'file' : stat.isFIFO() || stat.isSocket() ? 'socket' : 'other';
    } catch {
      // No stdin at all: an empty input.
      return finish();
    }
    if (kind === 'socket') return fromSocket();
    if (kind === 'other') return fromStream();

    let size = 64 * 1024;
    const next = () => {
      const buffer = Buffer.allocUnsafe(size);
      fs.read(0, buffer, 0, size, null, (error, bytesRead) => {
        if (done) return;
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return fromStream();
          // No stdin at all, or a Windows pipe's end, is just an empty or finished input.
          if (code === 'EOF' || code === 'EBADF' || code === 'EPIPE') return finish();
          return finish({ error: error.message });
        }
        if (bytesRead === 0) return finish();
        // A fresh buffer each time: the chunks are kept as they are.
        take(buffer.subarray(0, bytesRead));
        if (bytesRead === size && size < 1024 * 1024) size *= 4;
        next();
      });
    };
    next();
  });
}
