import { expect } from 'chai';
import { fillPlaceholders, renderTemplate, TemplateError } from '../../../demo/vulnerable-api/mini-template.js';

describe('the demo’s simulated template engine (demo/vulnerable-api/mini-template.ts)', () => {
  it('evaluates {{ }} expressions with Jinja2’s arithmetic (the vulnerable twin)', () => {
    expect(renderTemplate('Hi {{recipient}}, {{7*191}}', { recipient: 'Bob' })).to.equal('Hi Bob, 1337');
    expect(renderTemplate("{{7*'7'}}", {})).to.equal('7777777');
    expect(() => renderTemplate('{{ nope }}', {})).to.throw(TemplateError, /undefined/);
  });

  it('fills only named placeholders and leaves expressions as written (the secure twin)', () => {
    expect(fillPlaceholders('Hi {{recipient}}, {{7*191}}', { recipient: 'Bob' })).to.equal('Hi Bob, {{7*191}}');
  });
});
