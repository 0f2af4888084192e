/**
 * When the extension host's event loop stopped turning: a 10 ms heartbeat that notes each beat that came
 * late, on the clock V8's CPU profiles use (process.hrtime, in microseconds), so that a profile can say whose
 * code held the host (cpuProfileSummary.ts). No `vscode` import.
 */
import * as vm from 'node:vm';

/** A stretch in which no timer could run, in microseconds of process.hrtime. */
export interface HostPause {
  startUs: number;
  endUs: number;
}

const BEAT_MS = 10;

/**
 * The heartbeat is compiled as a script of its own name, so that a profile does not count its samples as
 * the extension's code.
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
    last: Number(process.hrtime.bigint() / 1000n),
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
