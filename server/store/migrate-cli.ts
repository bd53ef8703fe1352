/**
 * `db:migrate` as a function: reads MONGODB_URI, runs the migration, prints its report as one JSON line and
 * returns an exit code (0 done, 1 database failure, 2 bad usage or settings). Only `migrate-bin.ts` touches the process.
 */
import { readCommandLine } from '../../lib/settings/command-line.js';
import { defineSettings } from '../../lib/settings/declaration.js';
import { loadSettings } from '../../lib/settings/load-settings.js';
import { renderHelp } from '../../lib/settings/render-help.js';
import { settingsProblems } from '../../lib/settings/settings-error.js';
import { connectMongo } from '../db/connect.js';
import { migrate } from './migrate.js';

export const migrateSettings = defineSettings({
  ifConfigured: {
    flag: '--if-configured',
    type: 'boolean',
    doc: 'Do nothing (exit 0) when MONGODB_URI is unset (the embedded store needs no migration).',
  },
  mongodbUri: {
    env: 'MONGODB_URI',
    type: 'url',
    protocols: ['mongodb:', 'mongodb+srv:'],
    secret: true,
    required: true,
    doc: 'MongoDB connection string of the database to migrate.',
  },
  dbName: { env: 'MONGODB_DB_NAME', type: 'string', doc: 'Database name when it differs from the one in MONGODB_URI.' },
  serverSelectionTimeoutMs: {
    env: 'MONGODB_SERVER_SELECTION_TIMEOUT_MS',
    type: 'integer',
    min: 1,
    default: 5000,
    doc: 'How long to wait for a reachable database before giving up.',
  },
});

export interface MigrateIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const HELP = [
  'Usage: db:migrate [--if-configured] [--help]',
  '',
  'Creates the indexes of the MongoDB store and writes the platform data (policy profiles, templates).',
  'Idempotent: a second run creates and changes nothing. Prints a JSON report on stdout.',
  '',
  renderHelp(migrateSettings.settings, { heading: 'Settings:' }),
  '',
].join('\n');

export async function runMigrate(
  argv: string[],
  env: Record<string, string | undefined>,
  io: MigrateIo,
): Promise<number> {
  let settings;
  try {
    const { flags, help } = readCommandLine(migrateSettings.settings, argv);
    if (help) {
      io.stdout.write(HELP);
      return 0;
    }
    // `npm start` runs the migration first only when the service will use MongoDB.
    if (flags.ifConfigured && !env.MONGODB_URI && !env.MONGODB_URI_FILE) return 0;
    settings = loadSettings(migrateSettings, { flags, env });
  } catch (error) {
    if (!settingsProblems(error)) throw error;
    io.stderr.write(`db:migrate: ${(error as Error).message} (see db:migrate --help)\n`);
    return 2;
  }
  let connection;
  try {
    connection = await connectMongo(settings.mongodbUri, {
      dbName: settings.dbName,
      serverSelectionTimeoutMS: settings.serverSelectionTimeoutMs,
    });
  } catch (error) {
    // The URI may hold credentials: name the failure, never the URI.
    io.stderr.write(`db:migrate: cannot reach the database (${(error as Error).name})\n`);
    return 1;
  }
  try {
    const report = await migrate(connection);
    io.stdout.write(`${JSON.stringify({ database: connection.name, ...report })}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`db:migrate: migration failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await connection.close();
  }
}
