/**
 * The import rules of .dependency-cruiser.cjs, which `npm run lint` checks: each case builds a small tree with the
 * project's folder names and one wrong import, runs dependency-cruiser on it with the project's config, and
 * expects the run to fail naming the rule that the import breaks.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/processes';

const DEPCRUISE = path.join(REPO_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = path.join(REPO_ROOT, '.dependency-cruiser.cjs');

/** Runs the project's rules over a tree of files (path -> source); returns the exit status and the report. */
function cruise(files: Record<string, string>): { status: number | null; report: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-import-rules-'));
  try {
    fs.writeFileSync(
      path.join(root, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'Node16', moduleResolution: 'Node16', strict: true } }),
    );
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'err'], {
      cwd: root,
      encoding: 'utf8',
    });
    return { status: run.status, report: `${run.stdout}${run.stderr}` };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function brokenRules(report: string): string[] {
  return [...new Set([...report.matchAll(/error ([\w-]+):/g)].map((m) => m[1]))].sort();
}

describe('the import rules (dependency-cruiser)', () => {
  test('a type-only import from a lower layer up to a higher one fails, naming the layer rule', () => {
    const { status, report } = cruise({
      'src/engine/project/projectEngine.ts': 'export interface ProjectEngine { id: string }\n',
      'src/engine/registry/ranking.ts':
        "import type { ProjectEngine } from '../project/projectEngine';\nexport const rank = (e: ProjectEngine) => e.id;\n",
    });
    assert.notEqual(status, 0);
    assert.deepEqual(brokenRules(report), ['engine-layer-registry']);
    assert.match(report, /src\/engine\/registry\/ranking\.ts → src\/engine\/project\/projectEngine\.ts/);
  });

  test('the same import downward passes', () => {
    const { status, report } = cruise({
      'src/engine/registry/ranking.ts': 'export const rank = (id: string) => id.length;\n',
      'src/engine/project/projectEngine.ts':
        "import { rank } from '../registry/ranking';\nexport const score = rank('x');\n",
    });
    assert.equal(status, 0, report);
  });

  test('an import cycle fails, inside one folder too', () => {
    const { status, report } = cruise({
      'src/engine/pruning/advisor.ts':
        "import { explain } from './explain';\nexport const advise = () => explain();\n",
      'src/engine/pruning/explain.ts':
        "import type { advise } from './advisor';\nexport const explain = (): ReturnType<typeof advise> | void => undefined;\n",
    });
    assert.notEqual(status, 0);
    assert.deepEqual(brokenRules(report), ['no-circular']);
  });

  test('the host reaches the engine only through its facade, and the hook only through the recorder', () => {
    const { status, report } = cruise({
      'src/engine/index.ts': "export { rank } from './registry/ranking';\n",
      'src/engine/recorder.ts': "export { rank } from './registry/ranking';\n",
      'src/engine/registry/ranking.ts': 'export const rank = (id: string) => id.length;\n',
      'src/host/tools.ts':
        "import { rank } from '../engine/registry/ranking';\nexport const a = rank('x');\n",
      'src/host/facade.ts': "import { rank } from '../engine';\nexport const b = rank('y');\n",
      'src/hook/main.ts': "import { rank } from '../engine';\nexport const c = rank('z');\n",
      'src/hook/record.ts': "import { rank } from '../engine/recorder';\nexport const d = rank('w');\n",
    });
    assert.notEqual(status, 0);
    assert.deepEqual(brokenRules(report), ['engine-through-its-facade', 'hook-recorder-only']);
    assert.match(report, /src\/host\/tools\.ts/);
    assert.doesNotMatch(report, /src\/host\/facade\.ts|src\/hook\/record\.ts/);
  });

  test('nothing imports a worker entry script; the engine imports none of its users, nor the dashboard contract', () => {
    const { status, report } = cruise({
      'src/engine/workers/parseWorker.ts': 'export const parse = 1;\n',
      'src/engine/index.ts': "export { parse } from './workers/parseWorker';\n",
      'src/host/extension.ts': 'export const activate = 1;\n',
      'src/engine/log/spool.ts':
        "import { activate } from '../../host/extension';\nexport const s = activate;\n",
      'src/shared/protocol.ts': 'export interface ToolView { name: string }\n',
      'src/engine/registry/ranking.ts':
        "import type { ToolView } from '../../shared/protocol';\nexport const rank = (t: ToolView) => t.name;\n",
    });
    assert.notEqual(status, 0);
    assert.deepEqual(brokenRules(report), [
      'engine-below-its-users',
      'engine-not-the-dashboard-contract',
      'engine-workers-are-entries',
    ]);
  });

  test("one agent's folder importing another's fails; the agents' shared modules and its own files pass", () => {
    const { status, report } = cruise({
      'src/engine/agents/recorderHooks.ts': 'export const plan = 1;\n',
      'src/engine/agents/claudeCode/hookSettings.ts':
        "import { plan } from '../recorderHooks';\nexport const claude = plan;\n",
      'src/engine/agents/codex/hooks.ts':
        "import { claude } from '../claudeCode/hookSettings';\nimport { own } from './own';\nexport const codex = claude + own;\n",
      'src/engine/agents/codex/own.ts': 'export const own = 2;\n',
    });
    assert.notEqual(status, 0);
    assert.deepEqual(brokenRules(report), ['agents-apart']);
    assert.match(
      report,
      /src\/engine\/agents\/codex\/hooks\.ts → src\/engine\/agents\/claudeCode\/hookSettings\.ts/,
    );
    assert.doesNotMatch(report, /own\.ts|recorderHooks\.ts/);
  });

  test("outside agents/, importing an agent's folder fails; the adapter list and the agents' shared modules pass", () => {
    const { status, report } = cruise({
      'src/engine/agents/claudeCode/hookSettings.ts': 'export const scopes = 1;\n',
      'src/engine/agents/index.ts':
        "import { scopes } from './claudeCode/hookSettings';\nexport const list = scopes;\n",
      'src/engine/agents/adapter.ts': 'export const parts = 2;\n',
      'src/engine/live/gauge.ts':
        "import { scopes } from '../agents/claudeCode/hookSettings';\nexport const gauge = scopes;\n",
      'src/engine/live/reading.ts':
        "import { list } from '../agents';\nimport { parts } from '../agents/adapter';\nexport const reading = list + parts;\n",
    });
    assert.notEqual(status, 0);
    assert.deepEqual(brokenRules(report), ['agents-through-their-list']);
    assert.match(report, /src\/engine\/live\/gauge\.ts → src\/engine\/agents\/claudeCode\/hookSettings\.ts/);
    assert.doesNotMatch(report, /reading\.ts|agents\/index\.ts →/);
  });

  test('the host in layers: a project module importing the dashboard, or a view builder a top-level file, fails', () => {
    const { status, report } = cruise({
      'src/host/dashboard/dashboardView.ts': 'export const post = 1;\n',
      'src/host/project/liveGauge.ts':
        "import { post } from '../dashboard/dashboardView';\nimport { days } from '../views/days';\nexport const gauge = post + days;\n",
      'src/host/views/days.ts': "import { log } from '../extension';\nexport const days = log;\n",
      'src/host/extension.ts': 'export const log = 1;\n',
      'src/host/commands/projectCommands.ts':
        "import { gauge } from '../project/liveGauge';\nexport const run = gauge;\n",
    });
    assert.notEqual(status, 0);
    assert.deepEqual(brokenRules(report), ['host-layer-project', 'host-layer-views']);
    assert.doesNotMatch(report, /projectCommands\.ts/);
  });
});
