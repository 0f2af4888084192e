/** Types of the memory's answers that the host, the CLI and the MCP server pass on (the facade's `MemoryTypes`). */
export type { BudgetedText } from '../../memory/budget';
export type { SearchHit, SearchResult } from '../../memory/search';
export type { TimelineOptions, TimelineResult } from '../../memory/timeline';
