/**
 * Numbers an injection payload carries, fixed per operation and input (so a scan sends the same requests every run,
 * and two inputs or two operations never share one): a marker printed by an injected command, a template expression's
 * operand. Different `salt`s give different numbers for the second, confirming payload.
 */
import { createHash } from 'node:crypto';

/** A number in [min, max) from the operation, the input and a salt. */
export function payloadNumber(operationId: string, input: string, salt: string, min: number, max: number): number {
  const digest = createHash('sha256').update(`${operationId}\u0000${input}\u0000${salt}`).digest();
  return min + (digest.readUInt32BE(0) % (max - min));
}
