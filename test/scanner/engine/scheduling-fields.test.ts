/**
 * The runner's conventions as tests: every field of a check is either descriptive or a scheduling field whose
 * schema entry names the engine file that interprets it; every gate file is a row of gates.ts and has its test.
 * A new scheduling rule is one schema field, one gate file, one row, one test — this file says which is missing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect } from 'chai';
import { fromRoot } from '../../../lib/project-root.js';
import type { CheckDefinition } from '../../../scanner/api.js';
import type { Gate } from '../../../scanner/engine/gate.js';

/** The fields that say what a check is and reports; every other field of the schema is a scheduling field. */
const DESCRIPTIVE = new Set(['id', 'name', 'description', 'issues', 'maxCvss', 'options']);

// The schema and `CheckDefinition` list the same fields (`run` aside): a field missing from either does not compile,
// and the error names it.
type Schema = typeof import('../../../schemas/check-meta.schema.json', { with: { type: 'json' } });
type SchemaField = keyof Schema['properties'];
function none<T extends never>(): T[] {
  return [];
}
none<Exclude<keyof CheckDefinition, SchemaField | 'run'>>(); // add the field to schemas/check-meta.schema.json
none<Exclude<SchemaField, keyof CheckDefinition>>(); // add the field to CheckDefinition in scanner/api.ts

const schema = JSON.parse(readFileSync(fromRoot('schemas', 'check-meta.schema.json'), 'utf8')) as {
  properties: Record<string, { $comment?: string }>;
};
const gateFiles = readdirSync(fromRoot('scanner', 'engine', 'gates')).filter((f) => f.endsWith('.ts'));
// GATES and the gate files are imported alike (dynamically), so the functions compared are one module instance each.
const { GATES } = (await import('../../../scanner/engine/gates.js')) as { GATES: readonly Gate[] };
const gateOf = async (file: string): Promise<Gate | undefined> =>
  ((await import(`../../../scanner/engine/gates/${basename(file, '.ts')}.js`)) as { default?: Gate }).default;

describe('scheduling fields and gates (scanner/engine)', () => {
  const scheduling = Object.keys(schema.properties).filter((field) => !DESCRIPTIVE.has(field));

  it('has the scheduling fields a check can declare', () => {
    expect(scheduling).to.include.members(['dependsOn', 'scanKinds', 'appliesTo', 'passive', 'runsLast']);
  });

  for (const field of scheduling) {
    it(`${field}: its schema entry names the engine file that interprets it, and that file exists`, () => {
      const named = /scanner\/engine\/([\w/.-]+\.ts)/.exec(schema.properties[field]?.$comment ?? '')?.[1];
      expect(
        named,
        `scheduling field ${field}: add "$comment": "Scheduling: interpreted by scanner/engine/gates/<rule>.ts." to its schema entry`,
      ).to.be.a('string');
      expect(existsSync(fromRoot('scanner', 'engine', named!)), `scanner/engine/${named} does not exist`).to.equal(
        true,
      );
    });
  }

  it('names no engine file for a descriptive field', () => {
    for (const field of DESCRIPTIVE)
      expect(schema.properties[field].$comment, `${field} is descriptive: it names no engine file`).to.equal(undefined);
  });

  for (const file of gateFiles) {
    const rule = basename(file, '.ts');
    describe(`gates/${file}`, () => {
      it('default-exports a gate listed in scanner/engine/gates.ts', async () => {
        const gate = await gateOf(file);
        expect(gate, `scanner/engine/gates/${file}: export default function ${rule}(task) {…}`).to.be.a('function');
        expect(GATES, `add ${gate?.name ?? rule} to GATES in scanner/engine/gates.ts, where its order says`).to.include(
          gate,
        );
      });

      it('has its test in test/scanner/engine/gates/', () => {
        expect(
          existsSync(fromRoot('test', 'scanner', 'engine', 'gates', `${rule}.test.ts`)),
          `add test/scanner/engine/gates/${rule}.test.ts`,
        ).to.equal(true);
      });
    });
  }

  it('lists only gates of gates/ in gates.ts, each once', async () => {
    const fromFiles = await Promise.all(gateFiles.map(gateOf));
    expect(GATES.length, 'a gate is listed twice in scanner/engine/gates.ts').to.equal(new Set(GATES).size);
    for (const gate of GATES) expect(fromFiles, `${gate.name}: move it to scanner/engine/gates/`).to.include(gate);
  });
});
