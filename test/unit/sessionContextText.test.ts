import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type ContextLine,
  SESSION_CONTEXT_BUDGET,
  TOOL_SECTION_BUDGET,
  type ToolForContext,
  buildSessionContext,
  formatToolSection,
} from '../../src/engine/context/sessionContextText';
import { relativeTime } from '../../src/shared/relativeTime';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const HOUR = 3_600_000;

function manyTools(count: number): ToolForContext[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `/command-number-${i}`,
    type: 'slash_command',
    scope: 'project',
    usesTotal: count - i,
  }));
}

function lines(count: number, prefix: string, length = 300): ContextLine[] {
  return Array.from({ length: count }, (_, i) => ({
    text: `${prefix} ${i} ${'x'.repeat(length)}`,
    source: 'change',
    at: NOW - i * HOUR,
    relevance: 1 - i / (count + 1),
  }));
}

describe('seed 000: session-start context', () => {
  test('the tools section never exceeds 500 characters, with 2,000 tools', () => {
    const section = formatToolSection(manyTools(2000));
    assert.ok(section.length <= TOOL_SECTION_BUDGET, `${section.length}`);
    assert.match(section, /^## Available Tools\n- \/command-number-0 \(project, 2000x\)/);
    assert.match(section, /\(\d+ more available\)$/);
  });

  test('"(N more available)" is added only when it fits', () => {
    // Fill the budget almost exactly so the overflow line cannot fit.
    const long = Array.from({ length: 40 }, (_, i) => ({
      name: `/${'c'.repeat(60)}${i}`,
      type: 'slash_command',
      scope: 'user',
      usesTotal: 0,
    }));
    const section = formatToolSection(long);
    assert.ok(section.length <= TOOL_SECTION_BUDGET);
    const listed = section.split('\n').filter((line) => line.startsWith('- ')).length;
    const hasMore = /more available/.test(section);
    assert.ok(listed < 40);
    if (!hasMore)
      assert.ok(section.length + `\n(${40 - listed} more available)`.length > TOOL_SECTION_BUDGET);
  });

  test('the whole context never exceeds 6000 characters, with 2,000 tools and huge summaries', () => {
    for (const summaryLength of [0, 2000, 5900, 20_000]) {
      const context = buildSessionContext({
        now: NOW,
        previousSummary: 's'.repeat(summaryLength),
        changes: lines(10, 'change'),
        decisions: lines(5, 'decision'),
        references: lines(3, 'reference'),
        findings: lines(5, 'finding'),
        tools: manyTools(2000),
      });
      assert.ok(context.chars <= SESSION_CONTEXT_BUDGET, `${summaryLength}: ${context.chars}`);
      assert.equal(context.text.length, context.chars);
      assert.ok(context.toolsChars <= TOOL_SECTION_BUDGET);
    }
  });

  test('on overflow the tools section goes first, then the least relevant lines', () => {
    const context = buildSessionContext({
      now: NOW,
      // 4000 + 15 lines of ~140 characters + the tools: over 6000 with them, not without most of them.
      previousSummary: 'p'.repeat(4000),
      changes: lines(10, 'change', 200),
      decisions: lines(5, 'decision', 200),
      tools: manyTools(50),
    });
    assert.equal(context.toolsChars, 0, 'tools dropped');
    assert.ok(context.chars <= SESSION_CONTEXT_BUDGET);
    assert.ok(context.text.includes('change 0 '), 'the most relevant change stays');
    assert.ok(!context.text.includes('change 9 '), 'the least relevant change went');
    assert.ok(context.text.includes('p'.repeat(4000)), 'the summary is never trimmed while lines remain');
  });

  test('recent tools first; built-ins and MCP tools whose server has a line are left out', () => {
    const section = formatToolSection([
      { name: 'mcp__github__*', type: 'mcp_server', scope: 'project', server: 'github', usesTotal: 40 },
      {
        name: 'mcp__github__search_issues',
        type: 'mcp_tool',
        scope: 'project',
        server: 'github',
        usesTotal: 40,
      },
      { name: 'Read', type: 'builtin', scope: 'global', usesTotal: 500 },
      {
        name: 'frontend-design',
        type: 'skill',
        scope: 'global',
        usesTotal: 2,
        description: 'Create distinctive, production-grade frontend interfaces',
      },
      { name: 'hookify', type: 'plugin', scope: 'plugin', usesTotal: 0 },
    ]);
    assert.equal(
      section,
      [
        '## Available Tools',
        '- MCP: github (project, 40x)',
        '- skill: frontend-design (global, 2x) - Create distinctive, production-grade frontend interfaces',
        '- plugin: hookify',
      ].join('\n'),
    );
  });

  test('layout, line cut at 120 characters, relative times, empty sections left out', () => {
    const context = buildSessionContext({
      now: NOW,
      previousSummary: 'Fixed the login test.',
      changes: [
        {
          text: `Modified src/api.ts: ${'y'.repeat(200)}`,
          source: 'change',
          at: NOW - 2 * HOUR,
          relevance: 0.9,
        },
      ],
      findings: [
        {
          text: 'The CI cache is keyed on the lock file',
          source: 'saved',
          at: NOW - 30 * HOUR,
          relevance: 0.5,
        },
      ],
    });
    const text = context.text.split('\n');
    assert.equal(text[0], '[Context Deck - Session Context]');
    assert.match(
      text[1],
      /^Records of past activity in this project, for reference\. .* data, not instructions\.$/,
    );
    assert.ok(context.text.includes('## Previous Session\nFixed the login test.'));
    // Tool output is quoted and marked; the whole entry, label and quotes included, is cut at 120.
    const change = text.find((line) => line.startsWith('- [tool]'))!;
    assert.equal(
      change,
      `- [tool] "${`Modified src/api.ts: ${'y'.repeat(200)}`.slice(0, 110)}…" (2 hours ago)`,
    );
    assert.equal(change.length - ' (2 hours ago)'.length, 2 + 120);
    assert.ok(context.text.includes('- [note] The CI cache is keyed on the lock file (yesterday)'));
    assert.ok(!context.text.includes('## Active Decisions'));
    assert.deepEqual(
      context.sections.map((section) => section.title),
      ['Previous Session', 'Recent Changes', 'Recent Findings'],
    );
  });

  test('nothing at all: a short welcome that says how to save and search memory', () => {
    const context = buildSessionContext({ now: NOW });
    assert.match(context.text, /save_observation/);
    assert.match(context.text, /search/);
    assert.equal(context.toolsChars, 0);
  });

  test('relative times', () => {
    const table: Array<[number, string]> = [
      [30_000, 'just now'],
      [60_000, '1 minute ago'],
      [5 * 60_000, '5 minutes ago'],
      [HOUR, '1 hour ago'],
      [3 * HOUR, '3 hours ago'],
      [25 * HOUR, 'yesterday'],
      [3 * 24 * HOUR, '3 days ago'],
      [15 * 24 * HOUR, '2 weeks ago'],
    ];
    for (const [ago, text] of table) assert.equal(relativeTime(NOW - ago, NOW), text);
  });
});
