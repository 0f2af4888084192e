/**
 * The files an agent puts in every context of a session besides its messages (memory files, the listings of
 * skills and custom agents), as an adapter with message transcripts reads them for the breakdown.
 */

export interface MemoryFile {
  file: string;
  /** Characters the agent puts in the context for it. */
  chars: number;
}

export interface NamedFile {
  name: string;
  file: string;
  /** Characters of its entry in the listing the agent puts in the context. */
  chars: number;
}

export interface DiskFacts {
  memory: MemoryFile[];
  skills: NamedFile[];
  agents: NamedFile[];
}

export const NO_DISK_FACTS: DiskFacts = { memory: [], skills: [], agents: [] };
