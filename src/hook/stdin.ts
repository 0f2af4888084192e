/** Reading the whole of stdin without ever hanging the agent: bounded in size and in time. */
import { fstatSync, read } from 'node:fs';

export interface StdinRead {
  /** The first `limit` bytes. */
  data: Buffer;
  /** Bytes seen in all (may exceed `data.length`). */
  totalBytes: number;
  /** Stdin was still open when the time ran out. */
  timedOut: boolean;
  /**
   * A read of stdin is still waiting in libuv's thread pool: the process cannot exit normally (Node joins
   * those threads at exit), so it has to end itself with a signal.
   */
  readPending: boolean;
  error?: string;
}

/** Inputs up to this size are checked for a complete JSON value after each read (bigger ones wait for EOF). */
const EARLY_PARSE_BYTES = 256 * 1024;
const CLOSING_BRACE = 0x7d;

/** Whether `data` already holds one whole JSON object: the agent has said all it will say. */
function isWholeObject(data: Buffer): boolean {
  let end = data.length - 1;
  while (end >= 0 && (data[end] === 0x20 || data[end] === 0x0a || data[end] === 0x0d || data[end] === 0x09))
    end--;
  if (end < 0 || data[end] !== CLOSING_BRACE) return false;
  try {
    JSON.parse(data.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolve with what stdin held once it closes (or once it holds a whole JSON object), or with what arrived so
 * far after `timeoutMs`.
 *
 * Files, pipes and sockets are read with `fs.read`: a socket through `node:net` would cost about 6 ms more
 * at every hook call. The price is that a read waiting on a writer that neither writes nor closes cannot be
 * cancelled, hence `readPending`. A terminal is read through `process.stdin`.
 */
export function readStdin(limit: number, timeoutMs: number): Promise<StdinRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    let done = false;
    let pending = false;
    const finish = (extra: { timedOut?: boolean; error?: string } = {}) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({
        data: Buffer.concat(chunks, kept),
        totalBytes: total,
        timedOut: extra.timedOut ?? false,
        readPending: pending,
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

    let readable: boolean;
    try {
      const stat = fstatSync(0);
      readable = stat.isFile() || stat.isFIFO() || stat.isSocket();
    } catch {
      // No stdin at all: an empty input.
      return finish();
    }
    if (!readable) return fromStream();

    let size = 64 * 1024;
    const next = () => {
      const buffer = Buffer.allocUnsafe(size);
      pending = true;
      read(0, buffer, 0, size, null, (error, bytesRead) => {
        pending = false;
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
        if (total === kept && kept <= EARLY_PARSE_BYTES && isWholeObject(Buffer.concat(chunks, kept))) {
          return finish();
        }
        if (bytesRead === size && size < 1024 * 1024) size *= 4;
        next();
      });
    };
    next();
  });
}
