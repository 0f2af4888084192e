/** One project's tool registry as its users (the host, the CLI, the MCP server) reach it: ProjectEngine.tools. */
import type { ProjectStore } from '../storage/projectStore';
import type { ConfigScan } from '../agents/toolTypes';
import { applyScan, type ScanApplied } from './applyScan';
import { type DiscoveryResult, discoverFromUse } from './discovery';
import { type RankedTool, type RankOptions, rankTools } from './ranking';
import {
  planProjectServerEnabled,
  type ServerTogglePlan,
  type ToggleRequest,
  toggleConfirmation,
  writeProjectServerEnabled,
} from './serverToggle';

type PlannedSwitch = Extract<ServerTogglePlan, { supported: true }>;

export class ProjectTools {
  /** The project is passed whole: a rebuild or a reload replaces its database, and only its writer may change it. */
  constructor(private readonly project: ProjectStore) {}

  /** The agents' config as scanned, written into the registry (the writer only). */
  applyScan(scan: ConfigScan, now?: number): ScanApplied {
    return applyScan(this.project, scan, now);
  }

  /** Tools found in the calls recorded since the last discovery (the writer only). */
  discoverFromUse(maxCalls?: number): DiscoveryResult {
    return discoverFromUse(this.project, maxCalls);
  }

  rank(options?: RankOptions): RankedTool[] {
    return rankTools(this.project, options);
  }

  /** The change that switches one of the project's MCP servers on or off, planned in the config that declares it. */
  planServerSwitch(server: string, enabled: boolean): ServerTogglePlan {
    return planProjectServerEnabled({ projectRoot: this.project.identity.mainRoot, server, enabled });
  }

  /** The modal showing a planned switch before it is written; none for an Undo. */
  switchConfirmation(
    plan: PlannedSwitch,
    request: ToggleRequest,
    projectName: string,
  ): ReturnType<typeof toggleConfirmation> {
    return toggleConfirmation(plan, request, projectName, this.project.home);
  }

  /** Writes a planned switch (a backup under the project's home first); returns the backup's path. */
  writeServerSwitch(plan: PlannedSwitch): string | undefined {
    return writeProjectServerEnabled(plan, this.project.home);
  }
}
