/** A tool result exactly as the model read it, looked up in the transcript by its tool call's id. */
import * as fs from 'node:fs';
import { LineReader } from '../kernel/appendedLines';

const CHUNK_BYTES = 4 * 1024 * 1024;

function object(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Text blocks as they are, other blocks by what they are (an image, a loaded tool schema). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content, null, 2);
  return content
    .map((item) => {
      const block = object(item);
      if (typeof block?.text === 'string') return block.text;
      if (block?.type === 'image') return '[image]';
      if (block?.type === 'tool_reference') return `[loaded the schema of ${String(block.tool_name)}]`;
      return JSON.stringify(item, null, 2);
    })
    .join('\n');
}

/** The result of tool call `toolUseId` in `transcript`, or undefined when the transcript has none. */
export async function toolResultText(transcript: string, toolUseId: string): Promise<string | undefined> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(transcript, 'r');
  } catch {
    return undefined;
  }
  const reader = new LineReader();
  const needle = JSON.stringify(toolUseId);
  try {
    for (let offset = 0; ;) {
      const chunk = await reader.read(handle, offset, CHUNK_BYTES);
      if (!chunk) return undefined;
      offset += chunk.length;
      if (chunk.kind === 'oversized') continue;
      for (const line of chunk.lines) {
        if (!line.includes(needle)) continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          continue;
        }
        const content = object(object(parsed)?.message)?.content;
        if (!Array.isArray(content)) continue;
        for (const item of content) {
          const block = object(item);
          if (block?.type === 'tool_result' && block.tool_use_id === toolUseId)
            return resultText(block.content);
        }
      }
    }
  } finally {
    await handle.close();
  }
}
