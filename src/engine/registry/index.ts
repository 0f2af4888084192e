/** The tool registry: config scan, discovery from use, staleness and demotion, ranking, server toggles. */
export { applyScan } from './applyScan';
export { scanConfigs } from './configScan';
export { scanConfigsOffThread } from './scanOffThread';
export { displayPath } from '../agents/configLocations';
export { discoverFromUse } from './discovery';
export { readFrontMatter } from '../kernel/frontMatter';
export { type RankOptions, type RankedTool, rankTools, rankToolsInSteps } from './ranking';
export { planProjectServerEnabled, writeProjectServerEnabled } from './serverToggle';
export type * from '../agents/toolTypes';
// The tool vocabulary is shared with the host and the dashboard; it is declared in src/shared.
export type { ToolScope } from '../../shared/tools';
