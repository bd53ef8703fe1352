// mocha's settings. Positional specs (`npx mocha test/stack/tour.test.ts`) replace the default spec instead of being
// added to it, so one file runs alone; `npm test -- <file|grep>` (test/run.mjs) does the same with a typecheck choice.
const { existsSync } = require('node:fs');

const positional = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('-') && (/\.(ts|mjs|js)$/.test(arg) || arg.includes('*') || existsSync(arg)));

module.exports = {
  import: 'tsx',
  recursive: true,
  timeout: 20000,
  exit: true,
  ...(positional.length > 0 ? {} : { spec: ['test/**/*.test.ts'] }),
};
