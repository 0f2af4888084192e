/**
 * `node dist/mcp.js [--project DIR] [--home DIR]`: the memory MCP server over stdio, for the project of its
 * working directory (Claude Code starts project servers there) or --project. Pure JavaScript and sql.js, so
 * it starts in a fraction of a second with nothing to compile. Stdout carries only the protocol.
 */
import * as path from 'node:path';
import { resolveHome } from '../engine';
import { BoundedStdioTransport } from './boundedStdio';
import { InitializationGate } from './initialization';
import { createMemoryServer } from './server';

export function parseServerArgs(argv: readonly string[]): { project?: string; home?: string } {
  const args: { project?: string; home?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag !== '--project' && flag !== '--home') continue;
    const value = inline ?? argv[++i];
    if (value) args[flag === '--project' ? 'project' : 'home'] = value;
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseServerArgs(process.argv.slice(2));
  const memory = createMemoryServer({
    home: resolveHome(args.home),
    project: path.resolve(args.project ?? process.cwd()),
  });
  const transport = new InitializationGate(new BoundedStdioTransport());
  transport.onclose = () => void memory.close().finally(() => process.exit(0));
  // What the client cannot be told (a message refused without an id, one that is not JSON) goes to the log.
  memory.server.server.onerror = (error) => process.stderr.write(`context-deck mcp: ${error.message}\n`);
  await memory.server.connect(transport);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`context-deck mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
