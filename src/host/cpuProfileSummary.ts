/**
 * What a V8 CPU profile of the extension host says about one extension: how much of the host's time ran its
 * code, and its longest busy stretch. The host is shared with VS Code and every other extension, so the
 * whole process's CPU can't tell ours apart; the profile's stacks can. No `vscode` import: unit-tested on
 * real profiles recorded with node:inspector.
 */
import type { Profiler } from 'node:inspector';

export interface CpuProfileSummary {
  /** Wall time the profile covers. */
  ms: number;
  /** Time the thread was running anything (not idle), ms. */
  busyMs: number;
  /** Time with a frame of ours on the stack, ms (what our code ran, and what it called). */
  oursMs: number;
  /**
   * The longest run of busy samples, with no idle sample between them, that ran our code: an upper bound on
   * our longest task (back-to-back tasks are one run), ms.
   */
  longestOursMs: number;
}

/** `isOurs(url)`: whether a frame's script is ours (e.g. under the extension's folder). */
export function summariseCpuProfile(
  profile: Profiler.Profile,
  isOurs: (url: string) => boolean,
): CpuProfileSummary {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const oursMemo = new Map<number, boolean>();
  const stackIsOurs = (id: number): boolean => {
    const known = oursMemo.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const ours =
      node !== undefined &&
      (isOurs(node.callFrame.url) || (parentOf.has(id) && stackIsOurs(parentOf.get(id) as number)));
    oursMemo.set(id, ours);
    return ours;
  };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let busyUs = 0;
  let oursUs = 0;
  let longestUs = 0;
  // The current run of busy samples: when it started, and whether any of them was ours.
  let runStart: number | undefined;
  let runOurs = false;
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += deltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const span = i + 1 < samples.length ? (deltas[i + 1] ?? 0) : 0;
    const idle = byId.get(samples[i])?.callFrame.functionName === '(idle)';
    if (idle) {
      if (runStart !== undefined && runOurs) longestUs = Math.max(longestUs, at - runStart);
      runStart = undefined;
      runOurs = false;
      continue;
    }
    busyUs += span;
    runStart ??= at;
    if (stackIsOurs(samples[i])) {
      oursUs += span;
      runOurs = true;
    }
  }
  if (runStart !== undefined && runOurs) longestUs = Math.max(longestUs, profile.endTime - runStart);
  return {
    ms: (profile.endTime - profile.startTime) / 1000,
    busyMs: busyUs / 1000,
    oursMs: oursUs / 1000,
    longestOursMs: longestUs / 1000,
  };
}

/** One line for the Output channel. */
export function describeCpuProfile(summary: CpuProfileSummary): string {
  const percent = (ms: number) => `${((100 * ms) / Math.max(1, summary.ms)).toFixed(2)}%`;
  return (
    `over ${(summary.ms / 1000).toFixed(1)} s the extension host was busy ${percent(summary.busyMs)} of a core; ` +
    `Context Deck's code ran ${Math.round(summary.oursMs)} ms of it, ${percent(summary.oursMs)} of a core; ` +
    `its longest busy stretch ${Math.round(summary.longestOursMs)} ms`
  );
}
