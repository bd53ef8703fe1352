import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { fromRoot } from '../../../../lib/project-root.js';
import { WEBHOOK_EVENT_TYPES } from '../../../../server/components/webhooks/webhooks.model.js';

const EVENT_TYPE_ID = 'https://gatehouse.dev/schemas/api/webhook-event-type.schema.json';
const read = (name: string): unknown => JSON.parse(readFileSync(fromRoot('schemas', 'api', name), 'utf8'));

/** Every `enum` in a schema, wherever it sits. */
function enumsIn(node: unknown): unknown[][] {
  if (Array.isArray(node)) return node.flatMap(enumsIn);
  if (node === null || typeof node !== 'object') return [];
  const here = 'enum' in node && Array.isArray(node.enum) ? [node.enum as unknown[]] : [];
  return [...here, ...Object.values(node).flatMap(enumsIn)];
}

describe('webhook event types', () => {
  it('are the ones the WebhookEventType schema lists, in the same order', () => {
    expect((read('webhook-event-type.schema.json') as { enum: string[] }).enum).to.deep.equal([...WEBHOOK_EVENT_TYPES]);
  });

  it('are listed once: every webhook body refers to that schema instead of repeating the list', () => {
    const webhookSchemas = readdirSync(fromRoot('schemas', 'api')).filter(
      (name) => name.startsWith('webhook') && name !== 'webhook-event-type.schema.json',
    );
    expect(webhookSchemas).to.have.length.above(3);
    for (const name of webhookSchemas) {
      const text = JSON.stringify(read(name));
      expect(text, `${name} refers to the event types`).to.include(EVENT_TYPE_ID);
      const repeated = enumsIn(read(name)).filter((values) => values.includes(WEBHOOK_EVENT_TYPES[0]));
      expect(repeated, `${name} repeats the event types`).to.deep.equal([]);
    }
  });
});
