/**
 * The MCP server's tools: progressive disclosure of the project's memory (search -> timeline ->
 * get_observations), saving to it, and finding tools. It reads the project's snapshot read-only, picking up
 * the writer's saves before each call; its only write, save_observation, is an event appended to the log.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { version } from '../../package.json';
import {
  citationNotes,
  formatObservations,
  formatSearch,
  formatTimeline,
  MAX_GET_IDS,
  MAX_SAVED_TEXT,
  MemoryQueryError,
  OBSERVATION_TYPES,
  parseTime,
  ProjectEngine,
  shortId,
  TIMELINE_LIMITS,
  type MemoryTypes,
} from '../engine';
import { discoverTools, formatTools } from './discoverTools';
import { fieldArgument, queryArgument } from './inputLimits';

export interface MemoryServerOptions {
  home: string;
  project: string;
  now?: () => number;
}

const MAX_RESULTS = 50;
/** An observation id: 16 characters, so its prefixes are what callers pass. */
const ID_PATTERN = /^[0-9a-z]{1,16}$/i;

function text(result: MemoryTypes.BudgetedText): CallToolResult {
  return { content: [{ type: 'text', text: result.text }] };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function createMemoryServer(options: MemoryServerOptions): {
  server: McpServer;
  close(): Promise<void>;
} {
  const now = options.now ?? Date.now;
  // Opened on the first call, so the server answers the agent's handshake at once.
  let opening: Promise<ProjectEngine> | undefined;
  const engine = async (): Promise<ProjectEngine> => {
    opening ??= ProjectEngine.open({ home: options.home, folder: options.project, role: 'reader' });
    const opened = await opening.catch((error: unknown) => {
      opening = undefined;
      throw new MemoryQueryError(`cannot open the project ${options.project}: ${(error as Error).message}`);
    });
    await opened.reloadIfChanged();
    return opened;
  };
  /** Every tool answers; bad input and failures become tool errors the agent can read. */
  const handle =
    <A>(work: (args: A, project: ProjectEngine) => CallToolResult) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return work(args, await engine());
      } catch (error) {
        return failure(
          error instanceof MemoryQueryError ? error.message : `internal error: ${(error as Error).message}`,
        );
      }
    };

  const server = new McpServer({ name: 'context-deck', version });
  const types = z.enum(OBSERVATION_TYPES);
  const isoTime = (what: string) =>
    fieldArgument.optional().describe(`ISO date or date-time: only observations ${what} it`);

  server.registerTool(
    'search',
    {
      title: 'Search memory',
      description:
        'Step 1 of 3. Search observations of past sessions in this project (changes, commands, errors, decisions...). ' +
        'Returns a compact index: [n] id | title | score (1.00: the best match) | snippet | date. Words must all match; use "exact phrase", ' +
        'prefix*, or A OR B; every match is ranked (BM25), the best first. An empty query lists the latest. Then call timeline or ' +
        'get_observations with ids.',
      inputSchema: {
        query: queryArgument('Words to find; empty lists the latest observations'),
        type: z
          .union([types, z.array(types).max(OBSERVATION_TYPES.length)])
          .optional()
          .describe('Only these observation types'),
        session: fieldArgument.optional().describe('Only this session (id or prefix)'),
        since: isoTime('at or after'),
        until: isoTime('before'),
        limit: z.number().int().min(1).max(MAX_RESULTS).default(10).describe('Most results to return'),
      },
      annotations: { readOnlyHint: true },
    },
    handle((args, project) => {
      const result = project.memory.search({
        query: args.query,
        types: args.type === undefined ? undefined : [args.type].flat(),
        sessionId: args.session,
        since: args.since === undefined ? undefined : parseTime(args.since, 'since'),
        until: args.until === undefined ? undefined : parseTime(args.until, 'until'),
        limit: args.limit,
      });
      return text(formatSearch(result, args.query, citationNotes(project.identity.roots)));
    }),
  );

  server.registerTool(
    'timeline',
    {
      title: 'Memory timeline',
      description:
        'Step 2 of 3. Observations in time order around an observation id or a moment (default: now), with counts ' +
        `of what lies before and after. before ${TIMELINE_LIMITS.before.min}-${TIMELINE_LIMITS.before.max} ` +
        `(default ${TIMELINE_LIMITS.before.default}), after ${TIMELINE_LIMITS.after.min}-${TIMELINE_LIMITS.after.max} ` +
        `(default ${TIMELINE_LIMITS.after.default}); entries are cut to 200 characters.`,
      inputSchema: {
        id: fieldArgument.optional().describe('Observation id (or unique prefix) to center on'),
        anchor: fieldArgument.optional().describe('ISO date-time to center on when no id is given'),
        before: z.number().int().optional().describe('Observations before the anchor (1-20, default 5)'),
        after: z.number().int().optional().describe('Observations after the anchor (0-20, default 5)'),
        session: fieldArgument.optional().describe('Only this session (id or prefix)'),
      },
      annotations: { readOnlyHint: true },
    },
    handle((args, project) => {
      // An id given as the anchor is taken as one: agents copy ids into whichever field they see first.
      const anchorIsId =
        args.id === undefined &&
        args.anchor !== undefined &&
        ID_PATTERN.test(args.anchor) &&
        Number.isNaN(Date.parse(args.anchor));
      const result = project.memory.timeline({
        anchorId: args.id ?? (anchorIsId ? args.anchor : undefined),
        anchorAt: args.anchor === undefined || anchorIsId ? undefined : parseTime(args.anchor, 'anchor'),
        before: args.before,
        after: args.after,
        sessionId: args.session,
        now: now(),
      });
      return text(formatTimeline(result, citationNotes(project.identity.roots)));
    }),
  );

  server.registerTool(
    'get_observations',
    {
      title: 'Get observations',
      description: `Step 3 of 3. The full text of observations by id (or unique prefix), at most ${MAX_GET_IDS} per call.`,
      inputSchema: {
        ids: z.array(fieldArgument).min(1).max(MAX_GET_IDS).describe(`1 to ${MAX_GET_IDS} observation ids`),
      },
      annotations: { readOnlyHint: true },
    },
    handle((args, project) =>
      text(formatObservations(project.memory.get(args.ids), citationNotes(project.identity.roots))),
    ),
  );

  server.registerTool(
    'save_observation',
    {
      title: 'Save to memory',
      description:
        'Remember something for later sessions of this project: a decision, a pitfall, a pattern, a fix. ' +
        'Keep it to one or two sentences that will make sense without this conversation.',
      inputSchema: {
        text: z.string().min(1).max(MAX_SAVED_TEXT).describe('What to remember'),
        type: types.optional().describe('Kind of observation (default: guessed from the text)'),
      },
    },
    handle((args, project) => {
      const saved = project.memory.save({ text: args.text, type: args.type, origin: 'mcp' }, new Date(now()));
      return {
        content: [
          {
            type: 'text',
            text:
              `Saved as ${shortId(saved.id)}${args.type ? ` (${args.type})` : ''}. It is searchable as soon as the ` +
              'project is next ingested (at once while VS Code has the project open).',
          },
        ],
      };
    }),
  );

  server.registerTool(
    'discover_tools',
    {
      title: 'Discover tools',
      description:
        'Find tools configured or used in this project (MCP servers and their tools, skills, commands, subagents), ' +
        'ranked by how much they are really used, with status (active, stale, demoted) and success rate.',
      inputSchema: {
        query: queryArgument('Words that must all appear in the name or description'),
        limit: z.number().int().min(1).max(MAX_RESULTS).default(15).describe('Most tools to return'),
      },
      annotations: { readOnlyHint: true },
    },
    handle((args, project) =>
      text(formatTools(discoverTools(project, args.query, args.limit, now()), args.query)),
    ),
  );

  return {
    server,
    async close() {
      await server.close();
      if (opening) await (await opening.catch(() => undefined))?.close();
    },
  };
}
