/**
 * The inputs the injection family aims text payloads at (scanner/model/inputs.ts): those that reach the server as
 * text, the ones the operation sends first, then declared ones it does not send; at most `MAX_TARGETS`, so a wide
 * operation costs a bounded number of requests.
 */
import {
  isTextInput,
  operationInputs,
  payloadRefusal,
  type Operation,
  type OperationInput,
} from '../../scanner/api.js';

const MAX_TARGETS = 8;

export function injectionTargets(
  operation: Operation,
  wanted: (input: OperationInput) => boolean = () => true,
): OperationInput[] {
  const inputs = operationInputs(operation).filter((input) => isTextInput(input) && wanted(input));
  return [...inputs.filter((i) => i.sent), ...inputs.filter((i) => !i.sent)].slice(0, MAX_TARGETS);
}

/** Why an injection check does not run on the operation (unsafe to inject, or no input), else undefined. */
export function injectionTargetsRefusal(
  operation: Operation,
  wanted?: (input: OperationInput) => boolean,
  what = 'string input to inject into',
): string | undefined {
  return payloadRefusal(operation) ?? (injectionTargets(operation, wanted).length === 0 ? `no ${what}` : undefined);
}
