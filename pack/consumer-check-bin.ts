/** `npm run test:package`: the consumer check (pack/consumer-check.ts), one line per step; exit 1 if any failed. */
import { consumerCheck } from './consumer-check.js';

const results = await consumerCheck();
for (const { step, ok, output } of results) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${step}`);
  if (!ok || output.startsWith('notes')) console.log(output.replace(/^/gm, '     '));
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
