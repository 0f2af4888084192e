/**
 * Cline's two session formats as one: the task folders of its VS Code extension and CLI 2.x
 * (`taskFiles.ts`) and the session folders of its CLI 3.0 on the SDK (`sdkSessions.ts`). A file is read by
 * the format it is in; a session is looked for in both.
 */
import * as fs from 'node:fs';
import type { SessionFiles } from '../adapter';
import { clineSdkSessions } from './sdkSessions';
import { clineSessions } from './taskFiles';

const FORMATS: readonly SessionFiles[] = [clineSessions, clineSdkSessions];

function mtimeOf(file: string | undefined): number {
  if (file === undefined) return 0;
  try {
    return fs.lstatSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** The format whose file this is: the SDK's files are named `<id>.json` and `<id>.messages.json`. */
function formatOf(file: string): SessionFiles {
  return file.endsWith('.json') && !/(?:ui_messages|api_conversation_history)\.json$/.test(file)
    ? clineSdkSessions
    : clineSessions;
}

export const clineSessionFiles: SessionFiles = {
  measuresContext: true,
  // Each format's files in its own order (by when each session began); the format whose newest file was
  // written last goes last, so the gauge's fallback, the last file, is the newest session of either.
  find: (projectRoot, env) =>
    FORMATS.map((format) => format.find(projectRoot, env))
      .sort((a, b) => mtimeOf(a.at(-1)) - mtimeOf(b.at(-1)))
      .flat(),
  recognise: (head) => FORMATS.some((format) => format.recognise(head)),
  fileOf: (sessionId, env) =>
    FORMATS.map((format) => format.fileOf?.(sessionId, env)).find((file) => file !== undefined),
  read: (file, options) => formatOf(file).read(file, options),
};
