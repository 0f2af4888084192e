/** Claude Code transcript builders: lines shaped like the fixture transcripts, with chosen usage. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeProjectDir } from '../../src/engine/transcripts';
import { SHARED_DIR } from './events';

type Line = Record<string, unknown>;

const FIXTURE = path.join(SHARED_DIR, 'fixtures/transcripts/claude-code-log-representative_messages.jsonl');

function templates(): { user: Line; assistant: Line } {
  const lines = fs
    .readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
  return {
    user: lines.find((line) => line.type === 'user')!,
    assistant: lines.find((line) => line.type === 'assistant')!,
  };
}

export interface TurnUsage {
  input: number;
  cacheCreation?: number;
  cacheRead?: number;
  sidechain?: boolean;
}

/** A session: one prompt and one assistant response per turn, each response with the given usage. */
export function transcriptLines(options: {
  sessionId: string;
  cwd: string;
  startAt: number;
  model?: string;
  turns: TurnUsage[];
}): Line[] {
  const { user, assistant } = templates();
  const lines: Line[] = [];
  options.turns.forEach((turn, i) => {
    const at = (offset: number) => new Date(options.startAt + i * 60_000 + offset).toISOString();
    const common = { sessionId: options.sessionId, cwd: options.cwd, isSidechain: turn.sidechain ?? false };
    lines.push({
      ...user,
      ...common,
      uuid: `${options.sessionId}-u${i}`,
      timestamp: at(0),
      message: { role: 'user', content: [{ type: 'text', text: `Step ${i + 1}: keep going` }] },
    });
    const message = assistant.message as Line;
    lines.push({
      ...assistant,
      ...common,
      uuid: `${options.sessionId}-a${i}`,
      requestId: `req_${options.sessionId}_${i}`,
      timestamp: at(30_000),
      message: {
        ...message,
        id: `msg_${options.sessionId}_${i}`,
        model: options.model ?? 'claude-sonnet-4-5-20250929',
        usage: {
          input_tokens: turn.input,
          cache_creation_input_tokens: turn.cacheCreation ?? 0,
          cache_read_input_tokens: turn.cacheRead ?? 0,
          output_tokens: 200,
        },
      },
    });
  });
  return lines;
}

/** Where Claude Code keeps a session's transcript for a working directory. */
export function transcriptPath(claudeDir: string, cwd: string, sessionId: string): string {
  return path.join(claudeDir, 'projects', encodeProjectDir(cwd), `${sessionId}.jsonl`);
}

export function writeTranscript(file: string, lines: Line[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
}

/** The context percentage of a transcript, computed from the raw lines independently of the engine. */
export function expectedPercent(file: string, window = 200_000): number {
  const last = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.type === 'assistant' && !line.isSidechain)
    .map((line) => (line.message as { usage: Record<string, number> }).usage)
    .at(-1)!;
  const tokens = last.input_tokens + last.cache_creation_input_tokens + last.cache_read_input_tokens;
  return Math.round((tokens / window) * 1000) / 10;
}
