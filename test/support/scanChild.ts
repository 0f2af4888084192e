/**
 * Runs the config scan (or the memory file count) of a project in a process of its own and prints the
 * result as JSON, for tests where a hang or a runaway read is the failure (see childRun.ts).
 * Usage: node --import tsx scanChild.ts scan|memory <projectRoot> <userHome>
 */
import * as path from 'node:path';
import { scanConfigs } from '../../src/engine/registry/configScan';
import { readMemoryFiles } from '../../src/engine/transcripts/memoryFiles';

const [what, projectRoot, userHome] = process.argv.slice(2);
const result =
  what === 'memory'
    ? readMemoryFiles(projectRoot, path.join(userHome, '.claude'))
    : scanConfigs({ projectRoot, userHome });
process.stdout.write(JSON.stringify(result));
