/**
 * Ingest of an events/ folder of very many small files: a full pass, then a pass with nothing new.
 * Run: node --import tsx bench/manyLogFiles.ts [files=20000]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProjectEngine } from '../src/engine/project/projectEngine';

const files = Number(process.argv[2] ?? 20_000);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-many-files-'));
const home = path.join(root, 'home');
const project = path.join(root, 'project');
fs.mkdirSync(path.join(home, 'events'), { recursive: true });
fs.mkdirSync(project);

const line = (i: number, event: string, extra: Record<string, unknown>) =>
  `${JSON.stringify({
    hook_event_name: event,
    session_id: `s${i}`,
    cwd: project,
    ...extra,
    _cd: { ts: new Date(1.7e12 + i * 1000).toISOString(), agent: 'claude-code', v: 'bench' },
  })}\n`;
for (let i = 0; i < files; i++) {
  fs.writeFileSync(
    path.join(home, 'events', `f${String(i).padStart(7, '0')}.jsonl`),
    line(i, 'SessionStart', { source: 'startup' }) + line(i, 'UserPromptSubmit', { prompt: `prompt ${i}` }),
  );
}

async function main(): Promise<void> {
  const engine = await ProjectEngine.open({ home, folder: project, role: 'writer', parseWorkerFile: null });
  try {
    for (const pass of ['full pass', 'nothing new']) {
      const started = performance.now();
      const result = await engine.ingest();
      const ms = performance.now() - started;
      console.log(`${files} files, ${pass}: ${result.events} events in ${(ms / 1000).toFixed(2)} s`);
    }
  } finally {
    await engine.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
