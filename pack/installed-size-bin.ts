/**
 * `npm run size`: packs the package, installs the tarball in a scratch project and prints what a user downloads and
 * what lands in their node_modules (the README quotes it), with the largest dependencies.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { diskUsage, scratchInstall } from './scratch-install.js';

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

const install = await scratchInstall();
try {
  const modules = join(install.dir, 'node_modules');
  const total = await diskUsage(modules);
  const names = (await readdir(modules)).filter((n) => !n.startsWith('.'));
  const packages = (
    await Promise.all(
      names.map(async (name) =>
        name.startsWith('@') ? (await readdir(join(modules, name))).map((sub) => `${name}/${sub}`) : [name],
      ),
    )
  ).flat();
  const sizes = await Promise.all(
    packages.map(async (name) => ({ name, bytes: await diskUsage(join(modules, name)) })),
  );
  console.log(`gatehouse tarball: ${mb(install.packedBytes)} (${install.files} files)`);
  console.log(
    `installed (npm install gatehouse, production dependencies): ${mb(total)} in ${packages.length} packages`,
  );
  console.log('largest:');
  for (const { name, bytes } of sizes.sort((a, b) => b.bytes - a.bytes).slice(0, 10))
    console.log(`  ${name.padEnd(32)} ${mb(bytes).padStart(8)}`);
} finally {
  await install.remove();
}
