/**
 * What a V8 CPU profile of the extension host says about one extension: how much of the host's time ran its
 * code, and which of the host's pauses (pauseWatch.ts) were its own. The host is shared with VS Code and every
 * other extension, so neither the process's CPU nor its event-loop delay can tell ours apart; the profile's
 * stacks can. No `vscode` import: unit-tested on real profiles recorded with node:inspector.
 */
import type { Profiler } from 'node:inspector';
import type { HostPause } from './editor/pauseWatch';

export interface CpuProfileSummary {
  /** Wall time the profile covers. */
  ms: number;
  /** Time the thread was running anything (not idle), ms. */
  busyMs: number;
  /** Time with a frame of ours on the stack, ms (what our code ran, and what it called). */
  oursMs: number;
  /** The host's pauses in the profile, longest first, each with how much of it ran our code. */
  pauses: AttributedPause[];
}

export interface AttributedPause {
  /** From the profile's start. */
  atMs: number;
  /** How long no timer could run. */
  ms: number;
  /** Of that, time with our code on the stack. */
  oursMs: number;
  /** The outermost named function of ours in most of its samples of ours (how our code was entered). */
  entry: string;
}

/** The host pauses a profile attributes: the longest task the editor should ever wait on. */
export const PAUSE_MS = 50;

/** A pause is ours when our code ran most of it. */
export const isOurPause = (pause: AttributedPause) => pause.oursMs >= pause.ms / 2;

/** `isOurs(url)`: whether a frame's script is ours (e.g. under the extension's folder). */
export function summariseCpuProfile(
  profile: Profiler.Profile,
  isOurs: (url: string) => boolean,
  hostPauses: readonly HostPause[] = [],
): CpuProfileSummary {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Per profile node (a whole stack): whether any frame is ours, and our outermost named function.
  const entries = new Map<number, string | null>();
  const entryOf = (id: number): string | null => {
    let entry = entries.get(id);
    if (entry === undefined) {
      entry = null;
      for (let node = byId.get(id); node; node = byId.get(parentOf.get(node.id) ?? -1))
        if (isOurs(node.callFrame.url)) entry = node.callFrame.functionName || (entry ?? '');
      entries.set(id, entry);
    }
    return entry;
  };
  const pauses = [...hostPauses]
    .sort((a, b) => a.startUs - b.startUs)
    .map((pause) => ({ ...pause, oursUs: 0, entries: new Map<string, number>() }));
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let busyUs = 0;
  let oursUs = 0;
  let next = 0;
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += deltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const span = i + 1 < samples.length ? (deltas[i + 1] ?? 0) : profile.endTime - at;
    if (byId.get(samples[i])?.callFrame.functionName === '(idle)') continue;
    busyUs += span;
    const entry = entryOf(samples[i]);
    if (entry === null) continue;
    oursUs += span;
    while (next < pauses.length && pauses[next].endUs < at) next++;
    const pause = pauses[next];
    if (pause && pause.startUs <= at) {
      pause.oursUs += span;
      pause.entries.set(entry, (pause.entries.get(entry) ?? 0) + 1);
    }
  }
  return {
    ms: (profile.endTime - profile.startTime) / 1000,
    busyMs: busyUs / 1000,
    oursMs: oursUs / 1000,
    pauses: pauses
      .map((pause) => ({
        atMs: (pause.startUs - profile.startTime) / 1000,
        ms: (pause.endUs - pause.startUs) / 1000,
        oursMs: pause.oursUs / 1000,
        entry: [...pause.entries].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
      }))
      .sort((a, b) => b.ms - a.ms),
  };
}

/** Pauses of ours listed in the Output channel line, the longest first. */
const PAUSES_LISTED = 10;

/** One line for the Output channel. */
export function describeCpuProfile(summary: CpuProfileSummary): string {
  const percent = (ms: number) => `${((100 * ms) / Math.max(1, summary.ms)).toFixed(2)}%`;
  const ours = summary.pauses.filter(isOurPause);
  const others = summary.pauses.filter((pause) => !isOurPause(pause));
  const at = (pause: AttributedPause) => `${Math.round(pause.ms)} ms at ${(pause.atMs / 1000).toFixed(2)} s`;
  return (
    `over ${(summary.ms / 1000).toFixed(1)} s the extension host was busy ${percent(summary.busyMs)} of a core; ` +
    `Context Deck's code ran ${Math.round(summary.oursMs)} ms of it, ${percent(summary.oursMs)} of a core; ` +
    `the host paused over ${PAUSE_MS} ms ${summary.pauses.length} times, ${ours.length} of them mostly our code` +
    (ours.length > 0
      ? ` (${ours
          .slice(0, PAUSES_LISTED)
          .map((pause) => `${at(pause)} in ${pause.entry || 'anonymous'}`)
          .join('; ')})`
      : '') +
    (others.length > 0 ? `; the longest of other code ${at(others[0])}` : '')
  );
}
