/**
 * VS Code's agent runs the hooks of every file it reads one after the other, with no de-duplication: a user
 * connected through `.github/hooks/` and `.claude/settings.json` would have each event recorded twice. Each
 * copy receives the same input, stamped with the same `timestamp`, so the first recorder to claim the
 * event's key records it and the others drop their copy. Claude Code runs identical commands once itself.
 */
import { closeSync, openSync, readFileSync, readdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../kernel/privateFiles';

/** Claims older than this are swept away (the copies of one event arrive within the hook timeout). */
const KEEP_CLAIMS_MS = 10 * 60_000;

/** A 53-bit string hash (cyrb53): enough to tell recent events apart, without loading node:crypto. */
function digest(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

/** The key of one event as the agent stamped it; undefined when it carries no timestamp to tell copies by. */
export function eventKey(payload: Record<string, unknown>): string | undefined {
  const { timestamp } = payload;
  if (typeof timestamp !== 'string') return undefined;
  return [
    timestamp,
    payload.session_id ?? payload.sessionId,
    payload.hook_event_name ?? payload.hookEventName,
    payload.tool_use_id ?? '',
  ].join('\u0000');
}

function claimsDir(home: string): string {
  return join(home, 'claims');
}

/**
 * True when this process is the first to record the event; false for a copy. Never throws. `owner`, when
 * given, is written into the claim: a claim that names the same owner is its own (a drain of the spool that
 * stopped halfway and is taken up again), not a copy's.
 */
export function claimEvent(home: string, key: string, now = Date.now(), owner = ''): boolean {
  const dir = claimsDir(home);
  const file = join(dir, digest(key));
  try {
    makePrivateDir(dir);
    const fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
    try {
      if (owner) writeSync(fd, owner);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    // Claimed already: a copy, unless the claim is the owner's own. Any other failure must not cost the event.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true;
    return owner !== '' && readClaim(file) === owner;
  }
  if (file.endsWith('0')) sweep(dir, now);
  return true;
}

function readClaim(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Remove old claims, now and then (one claim in sixteen sweeps). */
function sweep(dir: string, now: number): void {
  try {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (now - statSync(file).mtimeMs > KEEP_CLAIMS_MS) unlinkSync(file);
    }
  } catch {
    // Another recorder swept first.
  }
}
