/** The Tools section's rows, built from the ranking and the last config scan: pure, tested without VS Code. */
import { displayPath, type RankedTool, type ToolTypes } from '../../engine';
import type { ToolProblemView, ToolView } from '../../shared/protocol';

/** A ranked tool (and an MCP server's tools) as the dashboard shows it, its file relative to the project or `~`. */
export function toolView(tool: RankedTool, projectRoot: string, userHome: string): ToolView {
  return {
    name: tool.name,
    type: tool.type,
    scope: tool.scope,
    origin: tool.origin,
    server: tool.server,
    source: tool.source === null ? null : displayPath(tool.source, projectRoot, userHome),
    line: tool.line,
    description: tool.description,
    disabled: tool.disabled,
    status: tool.status,
    statusReason: tool.statusReason,
    score: tool.score,
    scoreParts: tool.scoreParts,
    uses7d: tool.uses7d,
    usesTotal: tool.usesTotal,
    failures: tool.failures,
    successRate: tool.successRate,
    lastUsedAt: tool.lastUsedAt,
    unseenDays: tool.unseenDays,
    agents: tool.agents,
    ...(tool.children
      ? { children: tool.children.map((child) => toolView(child, projectRoot, userHome)) }
      : {}),
  };
}

/** The config files a scan could not read (or read whole), as the dashboard lists them. */
export function toolProblems(scan: ToolTypes.ConfigScan): ToolProblemView[] {
  return scan.problems.map((problem) => ({
    file: displayPath(problem.file, scan.projectRoot, scan.userHome),
    message: problem.message,
    ...(problem.readWhole ? { readWhole: true } : {}),
  }));
}
