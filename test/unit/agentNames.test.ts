import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AGENT_ADAPTERS } from '../../src/engine/agents';
import { PAYLOAD_READERS } from '../../src/engine/agents/payloads';
import { agentName } from '../../src/shared/agents';

describe('agent names', () => {
  test('a known agent by its name, an unknown id as it is', () => {
    assert.equal(agentName('claude-code'), 'Claude Code');
    assert.equal(agentName('copilot-cli'), 'GitHub Copilot CLI');
    assert.equal(agentName('some-new-agent'), 'some-new-agent');
  });

  test('an id that names a property every object has is an unknown id, not that property', () => {
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      assert.equal(agentName(id), id);
  });
});

describe('one list of agents', () => {
  test("the recorder reads each agent's payloads with that agent's own adapter reader, and knows no other", () => {
    assert.deepEqual(Object.keys(PAYLOAD_READERS).sort(), AGENT_ADAPTERS.map((adapter) => adapter.id).sort());
    for (const adapter of AGENT_ADAPTERS)
      assert.equal(PAYLOAD_READERS[adapter.id], adapter.payloads, adapter.id);
  });
});
