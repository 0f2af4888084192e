/** A real MCP client talking over stdio to the bundled memory server, as an agent starts it. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** Starts `mcpScript` (a bundled `mcp.js`) for `home` in the project folder `cwd`, and connects to it. */
export async function connectMemoryServer(mcpScript: string, home: string, cwd: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [mcpScript, '--home', home],
      cwd,
      stderr: 'pipe',
    }),
  );
  return client;
}
