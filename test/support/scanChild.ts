/**
 * Runs the config scan, the memory file count or the read of the project's Claude Code settings (as the
 * dashboard's connection status does) in a process of its own and prints the result as JSON, for tests
 * where a hang or a runaway read is the failure (see childRun.ts).
 * Usage: node --import tsx scanChild.ts scan|memory|settings <projectRoot> <userHome>
 */
import * as path from 'node:path';
import { readSettingsText } from '../../src/engine/agents/jsoncEdit';
import { scanConfigs } from '../../src/engine/registry/configScan';
import { readMemoryFiles } from '../../src/engine/agents/claudeCode/memoryFiles';

const [what, projectRoot, userHome] = process.argv.slice(2);
function settings(): Array<{ file: string; error?: string }> {
  return ['settings.json', 'settings.local.json'].map((name) => {
    const file = path.join(projectRoot, '.claude', name);
    try {
      readSettingsText(file);
      return { file };
    } catch (error) {
      return { file, error: (error as Error).message };
    }
  });
}

const result =
  what === 'memory'
    ? readMemoryFiles(projectRoot, path.join(userHome, '.claude'))
    : what === 'settings'
      ? settings()
      : scanConfigs({ projectRoot, userHome });
process.stdout.write(JSON.stringify(result));
