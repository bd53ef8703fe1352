/** isAppError: the one error class recognised whichever copy of lib/app-error.ts made the error. */
import { expect } from 'chai';
import { AppError, isAppError } from '../../lib/app-error.js';

describe('isAppError', () => {
  it('recognises an AppError made by another copy of the module (a bundle beside unbundled modules)', async () => {
    const copy = (await import(`../../lib/app-error.js?copy=${Date.now()}`)) as typeof import('../../lib/app-error.js');
    expect(copy.AppError).to.not.equal(AppError);
    expect(isAppError(new copy.AppError('invalid_argument', 'from the other copy'))).to.equal(true);
  });

  it('refuses plain errors and look-alikes that only share the name and code', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'AppError', code: 'invalid_argument' });
    expect(isAppError(lookalike)).to.equal(false);
    expect(isAppError({ code: 'x' })).to.equal(false);
    expect(isAppError(new AppError('x', 'y'))).to.equal(true);
  });
});
