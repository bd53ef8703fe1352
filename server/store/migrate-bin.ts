#!/usr/bin/env node
/** Entry point of `npm run db:migrate`: the only file of the migration that touches the process. */
import { runMigrate } from './migrate-cli.js';

process.exitCode = await runMigrate(process.argv.slice(2), process.env, process);
