/** Types of the tool registry that the host and the CLI pass on (the facade exports them as `ToolTypes`). */
export type { ConfigScan } from '../../agents/toolTypes';
export type { ScanOptions } from '../../registry/configScan';
export type { DiscoveryResult } from '../../registry/discovery';
export type { ToggleRequest } from '../../registry/serverToggle';
