/** The text of an observation's read-only document: pure, tested without VS Code. */
import { type Observation, shortId } from '../../engine';
import { clockTime, relativeTime } from '../../shared/relativeTime';

function isoMinute(at: number): string {
  return new Date(at).toISOString().slice(0, 16).replace('T', ' ') + 'Z';
}

/** The text of an observation document: the full text first, then what it is and where it came from. */
export function observationMarkdown(observation: Observation, now = Date.now()): string {
  const fields: Array<[string, string]> = [
    ['Type', observation.type],
    ['Source', observation.source],
    [
      'When',
      `${clockTime(observation.at, now)}, ${relativeTime(observation.at, now)} (${isoMinute(observation.at)})`,
    ],
    ['Session', observation.sessionId ?? '(none: saved outside a session)'],
    ['Agent', observation.agentType ?? '-'],
    ['Id', `${observation.id} (short: ${shortId(observation.id)})`],
  ];
  const title = observation.type.charAt(0).toUpperCase() + observation.type.slice(1);
  return [
    `# ${title} · ${shortId(observation.id)}`,
    '',
    observation.text,
    '',
    '---',
    '',
    ...fields.map(([name, value]) => `- ${name}: ${value}`),
    '',
    'Timeline, Forget and Copy are in this editor’s title bar, and in the command palette under “Context Deck”.',
    '',
  ].join('\n');
}
