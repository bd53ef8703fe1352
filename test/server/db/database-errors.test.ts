/** Which database failures the client sees as 503 unavailable (retry shortly), and which stay bugs (500). */
import { expect } from 'chai';
import mongoose from 'mongoose';
import { AppError } from '../../../lib/app-error.js';
import { rethrowDatabaseError } from '../../../server/db/database-errors.js';

function mapped(error: unknown): unknown {
  try {
    rethrowDatabaseError(error);
  } catch (thrown) {
    return thrown;
  }
  throw new Error('rethrowDatabaseError returned');
}

function serverError(code: number, labels: string[] = []): Error {
  return new mongoose.mongo.MongoServerError({ message: `code ${code}`, code, errorLabels: labels });
}

describe('rethrowDatabaseError', () => {
  it('answers 503 unavailable with Retry-After for a lost connection or an unreachable server', () => {
    for (const error of [
      new mongoose.mongo.MongoNetworkError('connection reset'),
      new mongoose.mongo.MongoNetworkTimeoutError('socket timed out'),
      new mongoose.mongo.MongoServerClosedError(),
      new mongoose.mongo.MongoUnexpectedServerResponseError('truncated reply'),
    ]) {
      const thrown = mapped(error);
      expect(thrown).to.be.instanceOf(AppError);
      expect((thrown as AppError).status).to.equal(503);
      expect((thrown as AppError).headers).to.have.property('Retry-After');
    }
  });

  it('answers 503 for the codes of a server shutting down, stepping down, timing out, losing its network or not replicating in time', () => {
    for (const code of [6, 7, 50, 64, 89, 91, 189, 262, 9001, 11600, 11602, 10107, 13435, 13436])
      expect((mapped(serverError(code)) as AppError).status, `code ${code}`).to.equal(503);
  });

  it('answers 503 for a socket error the driver did not wrap, as when a write meets a connection the database closed', () => {
    const ended = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
    for (const error of [ended, reset]) expect((mapped(error) as AppError).status, error.message).to.equal(503);
  });

  it('answers 503 for any error the driver labels retryable', () => {
    expect((mapped(serverError(2, ['RetryableWriteError'])) as AppError).status).to.equal(503);
  });

  it('leaves every other error as it is: a bug, answered 500 by the error handler', () => {
    const duplicate = serverError(11000);
    const bug = new TypeError('undefined is not a function');
    const noFile = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    expect(mapped(duplicate)).to.equal(duplicate);
    expect(mapped(bug)).to.equal(bug);
    expect(mapped(noFile)).to.equal(noFile);
  });
});
