/** What a scan of the agents' tool configs hands each adapter (ToolScanContext), and its one JSON reader. */
import type { ToolScope } from '../../shared/tools';
import { type JsonConfig, readJsonConfig } from '../kernel/jsonConfig';
import { isWithin } from '../kernel/paths';
import type { ToolScanContext } from './adapter';
import type { ConfigLocations } from './configLocations';
import type { ScanProblem } from './toolTypes';

export interface ToolScan extends ToolScanContext {
  /** Adds to `problems` what reading the files found odd (keys written twice, entries left out). */
  reportWarnings(): void;
}

/** A scan whose reader reads a repository's file only where it really is inside it, keeping every problem. */
export function startToolScan(locations: ConfigLocations, scopes: readonly ToolScope[]): ToolScan {
  const problems: ScanProblem[] = [];
  const configs: JsonConfig[] = [];
  return {
    locations,
    scopes,
    problems,
    read(file) {
      const within = isWithin(locations.projectRoot, file) ? locations.projectRoot : undefined;
      const result = readJsonConfig(file, { within });
      if ('problem' in result) problems.push({ file, message: result.problem });
      if (!('config' in result)) return undefined;
      configs.push(result.config);
      return result.config;
    },
    reportWarnings() {
      for (const config of configs.splice(0))
        problems.push(...config.warnings.map((warning) => ({ file: config.file, ...warning })));
    },
  };
}
