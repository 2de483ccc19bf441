// npm run migrate: brings the configured database to the latest schema.
import { loadConfig } from '../config.ts';
import { openDatabase } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';

const config = loadConfig();
const handle = await openDatabase({ url: config.databaseUrl });
const applied = await migrateToLatest(handle.db);
console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
await handle.close();
