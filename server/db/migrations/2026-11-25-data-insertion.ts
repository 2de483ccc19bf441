// Frozen: leads entered by hand or imported from a file (DB 등록). Such a lead keeps the basis
// on which the agency may process it — the consent a person gave on the phone or on paper, or
// a contract with an existing customer — with an optional note, and the import it came from.
// An import keeps what the file is (format, text encoding, header row) between its upload and
// its start, and how many of its leads were stored as duplicates. Never edit; add a new dated
// migration instead.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Null for leads from landing forms: their consent is the form's (privacy_consent, policy).
  await db.schema.alterTable('leads').addColumn('consent_basis', 'text').execute();
  await db.schema.alterTable('leads').addColumn('consent_note', 'text').execute();
  await db.schema.alterTable('leads').addColumn('import_id', 'integer').execute();

  // csv | xlsx
  await db.schema.alterTable('lead_imports').addColumn('format', 'text').execute();
  // utf-8 | cp949 | utf-16le | utf-16be (CSV only)
  await db.schema.alterTable('lead_imports').addColumn('encoding', 'text').execute();
  // JSON string[]: the header row (column names only, nothing personal)
  await db.schema.alterTable('lead_imports').addColumn('headers', 'text').execute();
  await db.schema.alterTable('lead_imports').addColumn('duplicates', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('lead_imports').addColumn('started_at', 'text').execute();
}
