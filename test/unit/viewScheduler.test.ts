/**
 * The engine decides when a project's derived views are brought up to date (project/viewScheduler.ts): the
 * runner passes its clock, timers and queue, and receives rankings and contexts. A real engine on a real
 * log; a clock the test moves.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import {
  CONTEXT_INTERVAL_MS,
  CONTEXT_QUIET_MS,
  RANK_THROTTLE_MS,
  RERANK_INTERVAL_MS,
  ViewScheduler,
  type ViewTimers,
} from '../../src/engine/project/viewScheduler';
import type { RankedTool } from '../../src/engine/registry/ranking';
import type { SessionContext } from '../../src/engine/context/sessionContextText';
import { appendEvents, sessionEvents, tempWorkspace } from '../support/events';

/** Timers on a clock that moves only when the test says; due callbacks run in order, then the queue drains. */
class Clock implements ViewTimers {
  private at = Date.parse('2026-11-28T12:00:00Z');
  private nextId = 1;
  private readonly due = new Map<number, { at: number; run: () => void; every?: number }>();

  now = () => this.at;
  after = (run: () => void, ms: number) => this.add(run, ms);
  every = (run: () => void, ms: number) => this.add(run, ms, ms);
  cancel = (handle: unknown) => void this.due.delete(handle as number);

  private add(run: () => void, ms: number, every?: number): number {
    const id = this.nextId++;
    this.due.set(id, { at: this.at + ms, run, every });
    return id;
  }

  /** Move `ms` forward, running what falls due on the way (and letting the work it queued finish). */
  async advance(ms: number): Promise<void> {
    const target = this.at + ms;
    for (;;) {
      const [id, next] = [...this.due.entries()]
        .filter(([, timer]) => timer.at <= target)
        .sort(([, a], [, b]) => a.at - b.at)[0] ?? [undefined, undefined];
      if (next === undefined) break;
      this.at = next.at;
      if (next.every) next.at += next.every;
      else this.due.delete(id!);
      next.run();
      await settle();
    }
    this.at = target;
    await settle();
  }

  get pending(): number {
    return this.due.size;
  }
}

/** Let queued work (promise chains, each with a few steps) run to its end. */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
}

let ws: ReturnType<typeof tempWorkspace>;
const opened: Array<ProjectEngine | ViewScheduler> = [];
beforeEach(() => {
  ws = tempWorkspace('cd-views-');
});
afterEach(async () => {
  for (const item of opened.splice(0).reverse())
    if (item instanceof ViewScheduler) item.dispose();
    else await item.close();
  ws.cleanup();
});

function scheduled(engine: ProjectEngine, clock: Clock) {
  const rankings: RankedTool[][] = [];
  const contexts: SessionContext[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  const views = new ViewScheduler(engine, {
    timers: clock,
    queue: (task) => {
      const run = tail.then(task);
      tail = run.catch(() => undefined);
      return run;
    },
    pause: () => Promise.resolve(),
    settings: () => ({ detailDays: 30, mode: 'balanced', strategy: 'frequency-share', hideBuiltins: false }),
    ranked: (tools) => rankings.push(tools),
    context: (context) => contexts.push(context),
    failed: (view, error) => assert.fail(`${view}: ${String(error)}`),
  });
  opened.push(views);
  return { views, rankings, contexts, queue: (task: () => Promise<unknown>) => (tail = tail.then(task)) };
}

function recordSession(id: string, tools: string[]): void {
  appendEvents(
    ws.home,
    sessionEvents({
      sessionId: id,
      cwd: ws.project,
      startAt: Date.parse('2026-11-28T11:00:00Z'),
      tools: tools.map((tool) => ({ tool })),
    }),
  );
}

describe('the engine schedules its derived views', () => {
  test('after an ingest: the registry at once, one ranking for a burst of calls, the context after a quiet moment', async () => {
    const clock = new Clock();
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    opened.push(engine);
    const { views, rankings, contexts, queue } = scheduled(engine, clock);
    await clock.advance(0);
    assert.equal(contexts.length, 1, 'the context is assembled once the project opens');

    recordSession('s1', ['Read', 'Grep', 'Read']);
    await engine.ingest();
    let discovered = 0;
    await queue(async () => (discovered = (await views.afterIngest()).discovered.calls));
    assert.equal(discovered, 3, 'the registry read the calls in the same task as the ingest');
    await clock.advance(0);
    assert.equal(rankings.length, 1);
    assert.deepEqual(
      rankings[0].map((tool) => tool.name).sort(),
      ['Grep', 'Read'],
      'the ranking holds the tools in use',
    );
    // More calls within the throttle: one more ranking, when it has passed.
    for (const id of ['s2', 's3']) {
      recordSession(id, ['Bash']);
      await engine.ingest();
      await queue(() => views.afterIngest());
    }
    // The burst's context once it has been quiet a moment; the burst's ranking once the throttle has passed.
    await clock.advance(CONTEXT_QUIET_MS - 1);
    assert.deepEqual([contexts.length, rankings.length], [1, 1]);
    await clock.advance(1);
    assert.deepEqual([contexts.length, rankings.length], [2, 1], 'one context for the burst');
    await clock.advance(RANK_THROTTLE_MS - CONTEXT_QUIET_MS - 1);
    assert.equal(rankings.length, 1, 'not before the throttle has passed');
    await clock.advance(1);
    assert.equal(rankings.length, 2, 'one ranking for the burst');
    assert.ok(rankings[1].some((tool) => tool.name === 'Bash'));
  });

  test('an ingest that found nothing assembles nothing; time alone ranks and assembles again; dispose stops all', async () => {
    const clock = new Clock();
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    opened.push(engine);
    const { views, rankings, contexts, queue } = scheduled(engine, clock);
    await clock.advance(0);
    await queue(() => views.afterIngest({ changed: false }));
    await clock.advance(CONTEXT_QUIET_MS);
    assert.deepEqual([rankings.length, contexts.length], [0, 1]);
    await clock.advance(CONTEXT_INTERVAL_MS);
    assert.equal(contexts.length, 2, 'every minute regardless');
    await clock.advance(RERANK_INTERVAL_MS);
    assert.equal(rankings.length, 1, 'recency moves with time');
    views.dispose();
    assert.equal(clock.pending, 0, 'no timer left behind');
  });

  test("a window that follows the writer ranks the writer's snapshot and writes nothing", async () => {
    recordSession('s1', ['Edit']);
    const writer = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    opened.push(writer);
    await writer.ingest();
    await scheduled(writer, new Clock()).views.afterIngest();
    await writer.save();
    const reader = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'reader' });
    opened.push(reader);
    const clock = new Clock();
    const { views, rankings } = scheduled(reader, clock);
    const { folded, discovered } = await views.afterIngest({ newHistory: true });
    assert.deepEqual([folded, discovered.calls], [0, 0]);
    views.rankSoon(true);
    await clock.advance(0);
    assert.deepEqual(
      rankings.at(-1)?.map((tool) => tool.name),
      ['Edit'],
    );
  });
});
