/** Claude Code transcript builders: lines shaped like the fixture transcripts, with chosen usage. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeProjectDir } from '../../src/engine/agents/claudeCode/transcriptFiles';
import { FIXTURES_DIR } from './events';

export type Line = Record<string, unknown>;

/** The fixture's lines name an old model; built sessions use a current one. */
const CURRENT_MODEL = 'claude-sonnet-4-5-20250929';

const FIXTURE = path.join(FIXTURES_DIR, 'transcripts/claude-code-log-representative_messages.jsonl');

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
        model: options.model ?? CURRENT_MODEL,
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

export interface ToolTurn {
  tool: string;
  input: Record<string, unknown>;
  /** Characters of the result the model reads. */
  resultChars: number;
  /** The result's text; by default `resultChars` filler characters. */
  result?: string;
  /** Context tokens reported with the call. */
  tokens: number;
  at: number;
  sidechain?: boolean;
  /** The tool failed: its result is marked `is_error`, as Claude Code marks a failed call. */
  error?: boolean;
}

/** An assistant line calling a tool and the user line with its result, shaped like the fixture's. */
export function toolTurnLines(options: { sessionId: string; cwd: string; turns: ToolTurn[] }): Line[] {
  const { user, assistant } = templates();
  return options.turns.flatMap((turn, i) => {
    const id = `toolu_${options.sessionId}_${i}_${turn.at}`;
    const common = { sessionId: options.sessionId, cwd: options.cwd, isSidechain: turn.sidechain ?? false };
    return [
      {
        ...assistant,
        ...common,
        uuid: `${id}-use`,
        requestId: `req_${id}`,
        timestamp: new Date(turn.at).toISOString(),
        message: {
          ...(assistant.message as Line),
          id: `msg_${id}`,
          model: CURRENT_MODEL,
          content: [{ type: 'tool_use', id, name: turn.tool, input: turn.input }],
          usage: {
            input_tokens: 100,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: turn.tokens - 100,
            output_tokens: 50,
          },
        },
      },
      {
        ...user,
        ...common,
        uuid: `${id}-result`,
        timestamp: new Date(turn.at + 1000).toISOString(),
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: id,
              content: turn.result ?? 'r'.repeat(turn.resultChars),
              ...(turn.error ? { is_error: true } : {}),
            },
          ],
        },
      },
    ];
  });
}

/** An assistant line answering in text, with the context tokens its call reported. */
export function assistantTextLine(options: {
  sessionId: string;
  cwd: string;
  text: string;
  tokens: number;
  at: number;
}): Line {
  const { assistant } = templates();
  const key = `${options.sessionId}-t-${options.at}`;
  return {
    ...assistant,
    sessionId: options.sessionId,
    cwd: options.cwd,
    isSidechain: false,
    uuid: key,
    requestId: `req_${key}`,
    timestamp: new Date(options.at).toISOString(),
    message: {
      ...(assistant.message as Line),
      id: `msg_${key}`,
      model: CURRENT_MODEL,
      content: [{ type: 'text', text: options.text }],
      usage: {
        input_tokens: 100,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: options.tokens - 100,
        output_tokens: 80,
      },
    },
  };
}

/** A user prompt line. */
export function promptLine(options: { sessionId: string; cwd: string; text: string; at: number }): Line {
  const { user } = templates();
  return {
    ...user,
    sessionId: options.sessionId,
    cwd: options.cwd,
    isSidechain: false,
    uuid: `${options.sessionId}-p-${options.at}`,
    timestamp: new Date(options.at).toISOString(),
    message: { role: 'user', content: options.text },
  };
}

/** Claude Code's compaction marker: a system line with the tokens before it. */
export function compactBoundaryLine(options: {
  sessionId: string;
  cwd: string;
  at: number;
  preTokens: number;
}): Line {
  return {
    type: 'system',
    subtype: 'compact_boundary',
    sessionId: options.sessionId,
    cwd: options.cwd,
    isSidechain: false,
    uuid: `${options.sessionId}-c-${options.at}`,
    timestamp: new Date(options.at).toISOString(),
    content: 'Conversation compacted',
    compactMetadata: { trigger: 'manual', preTokens: options.preTokens },
  };
}

/**
 * The real fixture transcripts as if Claude Code had written them in `project`: each line's `cwd` becomes
 * the project (they were recorded elsewhere), everything else stays as captured. Unparseable lines stay too.
 */
export function placeFixtureTranscripts(claudeDir: string, project: string): string[] {
  const dir = path.dirname(transcriptPath(claudeDir, project, 'x'));
  fs.mkdirSync(dir, { recursive: true });
  const source = path.join(FIXTURES_DIR, 'transcripts');
  return fs
    .readdirSync(source)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => {
      const lines = fs.readFileSync(path.join(source, name), 'utf8').split('\n');
      const moved = lines.map((text) => {
        try {
          const line = JSON.parse(text) as Line;
          return 'cwd' in line ? JSON.stringify({ ...line, cwd: project }) : text;
        } catch {
          return text;
        }
      });
      const file = path.join(dir, name);
      fs.writeFileSync(file, moved.join('\n'));
      return file;
    });
}
