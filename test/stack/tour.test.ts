/** One tour: what `npm start` prints and the README's Quick tour come from the same source and stay equal. */
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { nextSteps } from '../../stack/next-steps.js';
import { DEFAULT_TOUR_URLS, quickTour, scanTour } from '../../stack/tour.js';
import { printedTour } from '../support/stack-process.js';

function readmeBlock(readme: string, name: string): string {
  const match = new RegExp(
    `<!-- generated:${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\`\\n<!-- /generated:${name} -->`,
  ).exec(readme);
  if (!match) throw new Error(`README.md has no generated ${name} block`);
  return match[1];
}

describe('the quick tour', () => {
  const urls = {
    idp: 'http://127.0.0.1:8484',
    service: 'http://127.0.0.1:3000',
    internal: 'http://127.0.0.1:3001',
    audience: 'a',
    internalAudience: 'b',
  };

  it('is printed by npm start exactly as the README shows it, on the default ports', async () => {
    const readme = await readFile(fromRoot('README.md'), 'utf8');
    expect(printedTour(nextSteps(urls))).to.equal(readmeBlock(readme, 'quick-tour'));
    expect(readmeBlock(readme, 'quick-tour-scan')).to.equal(scanTour());
  });

  it('carries the URLs the stack got on other ports, and never the default ones', () => {
    const printed = printedTour(
      nextSteps({ ...urls, service: 'http://127.0.0.1:4100', internal: 'http://127.0.0.1:4101' }),
    );
    expect(printed)
      .to.include('http://127.0.0.1:4100/api/v1/organizations/')
      .and.include('http://127.0.0.1:4101/internal/v1/review-queue');
    expect(printed).to.not.include(':3000').and.not.include(':3001');
    expect(quickTour(DEFAULT_TOUR_URLS)).to.include(':3000');
  });

  it('says where the 422 comes from: create accepts an incomplete draft, submit lists the violations', () => {
    const lines = quickTour(DEFAULT_TOUR_URLS).split('\n');
    const createComment = lines.find((l) => l.startsWith('# create accepts an incomplete draft'));
    expect(createComment).to.include('422');
    const submitLine = lines.find((l) => l.includes('$SKETCH/actions/submit'));
    expect(submitLine).to.include('# 422 validation_failed');
  });
});
