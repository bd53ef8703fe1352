import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { loadChecks } from '../../scanner/loader.js';
import { isAppError, type AppError } from '../../lib/app-error.js';

const fixtures = fileURLToPath(new URL('../fixtures/custom-checks/', import.meta.url));
const dir = (name: string): string => `${fixtures}${name}`;

async function loadError(dirs: string[]): Promise<AppError> {
  try {
    await loadChecks({ dirs, includeBuiltIn: false });
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected loadChecks to fail');
}

describe('scanner loader', () => {
  it('loads a valid custom directory with origin custom, sorted by file name', async () => {
    const checks = await loadChecks({ dirs: [dir('valid')], includeBuiltIn: false });
    expect(checks.map((c) => [c.definition.id, c.origin])).to.deep.equal([
      ['custom.probe', 'custom'],
      ['custom.server_header', 'custom'],
    ]);
  });

  it('loads a plain JavaScript check (.mjs) that does not import defineCheck', async () => {
    const checks = await loadChecks({ dirs: [dir('plain-js')], includeBuiltIn: false });
    expect(checks.map((c) => [c.definition.id, c.file.endsWith('custom.plain.mjs')])).to.deep.equal([
      ['custom.plain', true],
    ]);
  });

  it('refuses the same id in two directories, naming both files', async () => {
    const error = await loadError([dir('duplicate-a'), dir('duplicate-b')]);
    expect(error.code).to.equal('duplicate_check');
    expect(error.message).to.match(
      /duplicate-b\/custom\.same\.ts: check id "custom\.same" is already defined by .*duplicate-a\/custom\.same\.ts \(custom\)/,
    );
  });

  it('refuses a dependency that does not exist', async () => {
    const error = await loadError([dir('missing-dependency')]);
    expect(error.code).to.equal('missing_dependency');
    expect(error.message).to.match(/custom\.orphan\.ts: depends on "custom\.nowhere", which does not exist$/);
  });

  it('refuses a dependency on an exclusive check, which runs after every other (a scan waiting on it crashed)', async () => {
    const error = await loadError([dir('depends-on-exclusive')]);
    expect(error.code).to.equal('invalid_check');
    expect(error.message).to.match(
      /custom\.waits\.ts: depends on "custom\.changes_role", an exclusive check \(it runs after every other check\)$/,
    );
  });

  it('refuses a cycle and prints its path', async () => {
    const error = await loadError([dir('cycle')]);
    expect(error.code).to.equal('check_cycle');
    expect(error.message).to.match(/custom\.a\.ts: dependency cycle custom\.a → custom\.b → custom\.a$/);
  });

  it('refuses malformed meta, naming the file and the first problem on one line', async () => {
    const error = await loadError([dir('malformed')]);
    expect(error.code).to.equal('invalid_check');
    expect(error.message).to.match(/^.*custom\.bad_meta\.ts: /);
    expect(error.message).to.not.include('\n');
    expect(error.fields?.map((f) => f.message).join(' | '))
      .to.include('maxCvss')
      .and.include('dependOn is not a known field');
  });

  it('derives maxCvss from the highest issue score when a check leaves it out, and keeps a stated one that equals it', async () => {
    const checks = await loadChecks({ dirs: [dir('threshold')], includeBuiltIn: false });
    expect(checks.map((c) => [c.definition.id, c.definition.maxCvss])).to.deep.equal([
      ['custom.gate', 0],
      ['custom.high', 8],
      ['custom.info', 0],
      ['custom.low', 2],
    ]);
  });

  it('refuses a stated maxCvss that differs from the highest issue score', async () => {
    const error = await loadError([dir('max-cvss-too-low')]);
    expect(error.code).to.equal('invalid_check');
    expect(error.message).to.match(
      /custom\.understated\.ts: maxCvss 2 must equal the highest issue score \(8\), or be left out$/,
    );
  });

  it('refuses a check whose id differs from its file name', async () => {
    const error = await loadError([dir('wrong-name')]);
    expect(error.code).to.equal('invalid_check');
    expect(error.message).to.include('id "custom.other_name" must equal the file name "custom.renamed"');
  });

  it('refuses a shared verdict whose key is not a function', async () => {
    const error = await loadError([dir('shared-verdict-without-key')]);
    expect(error.code).to.equal('invalid_check');
    expect(error.message).to.include('custom.shared.mjs: sharedVerdict.key must be a function');
  });

  it('refuses a check that runs once per scan and once per GraphQL endpoint', async () => {
    const error = await loadError([dir('graphql-once-per-scan')]);
    expect(error.code).to.equal('invalid_check');
    expect(error.message).to.include('custom.graphql_once.ts: oncePerScan and graphqlOperations exclude each other');
  });

  it('refuses a check that would run again as the raised identity while it runs alone, changing identities', async () => {
    const error = await loadError([dir('rerun-exclusive')]);
    expect(error.code).to.equal('invalid_check');
    expect(error.message).to.include('custom.rerun_exclusive.ts: rerunsAsRaised excludes exclusive');
  });

  it('refuses a module that throws while it is imported, with the first line of the error', async () => {
    const error = await loadError([dir('broken-import')]);
    expect(error.code).to.equal('invalid_check');
    expect(error.message).to.match(/custom\.broken\.ts: cannot be imported: boom at import$/);
  });

  it('refuses a checks directory that does not exist', async () => {
    const error = await loadError([dir('no-such-dir')]);
    expect(error.code).to.equal('unreadable_checks_dir');
    expect(error.message).to.include('no-such-dir: checks directory does not exist');
  });
});
