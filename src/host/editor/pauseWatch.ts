/**
 * When the extension host's event loop stopped turning. `longestPause`: the longest, for the Output channel's
 * figures. `watchPauses`: each one, timed on the clock V8's CPU profiles use (process.hrtime, in
 * microseconds), so that a profile can say whose code held the host (cpuProfileSummary.ts). No `vscode`
 * import.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vm from 'node:vm';

/** The host's longest pause, anyone's, from now until `stop()`: the event loop's delay, looked at every 10 ms. */
export function longestPause(): { stop(): void; maxMs(): number } {
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  return {
    stop: () => delays.disable(),
    maxMs: () => Math.round(delays.max / 1e6),
  };
}

/** Now on the monotonic clock of V8's CPU profiles, in microseconds. */
export const hrtimeUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** A stretch in which no timer could run, in microseconds of process.hrtime. */
export interface HostPause {
  startUs: number;
  endUs: number;
}

const BEAT_MS = 10;

/**
 * The heartbeat is compiled as a script of its own name, so that a profile does not count its samples as
 * the extension's code (so it reads the clock itself, as `hrtimeUs` does).
 */
const beat = new vm.Script(
  `(function beat(state) {
     const now = Number(process.hrtime.bigint() / 1000n);
     if (now - state.last > state.thresholdUs) state.pauses.push({ startUs: state.last, endUs: now });
     state.last = now;
   })`,
  { filename: 'context-deck-pause-watch' },
).runInThisContext() as (state: WatchState) => void;

interface WatchState {
  last: number;
  thresholdUs: number;
  pauses: HostPause[];
}

/** Note every pause over `thresholdMs` until `stop()`, which returns them. */
export function watchPauses(thresholdMs: number): { stop(): HostPause[] } {
  const state: WatchState = {
    last: hrtimeUs(),
    // Beats are BEAT_MS apart: a longer gap holds a task of up to that gap (up to BEAT_MS of it may be idle).
    thresholdUs: thresholdMs * 1000,
    pauses: [],
  };
  const timer = setInterval(beat, BEAT_MS, state);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      beat(state);
      return state.pauses;
    },
  };
}
