// Frozen: landing experiments (A/B variants, issue 26). landing_experiments holds one experiment
// of a landing: draft (variants being edited) → running → stopped; at most one not stopped per
// landing (landing_experiments_open_idx). `stop_at` is a scheduled stop, `winner` the variant
// promoted when it stopped (null: stopped without one), `results` the figures archived at the
// stop (JSON, contracts/experiments.ts ExperimentResults). landing_experiment_variants holds its
// variants: key A is the control and renders the landing's own content (`content` null); B, C …
// hold a whole landing content (validated by contracts/landings.ts landingContent) and a
// relative traffic `weight`.
// Visits per variant go to visit_variants (experiment, variant, Seoul day) beside the landing's
// visits row, not in a new column of visits: visits' primary key (landing, day, source) cannot
// take a nullable column, and SQLite cannot change a primary key in place.
// leads.experiment_id/variant: the variant the visitor's form carried (null outside experiments);
// leads_experiment_idx is partial (only experiment leads), so intake's other inserts pay nothing.
// Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';
import { dialectOf, id } from '../migration-kit.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  await id(db.schema.createTable('landing_experiments'), d)
    .addColumn('landing_id', 'integer', (c) => c.notNull().references('landings.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // draft | running | stopped
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('stopped_at', 'text')
    .addColumn('stop_at', 'text')
    .addColumn('winner', 'text')
    .addColumn('results', 'text')
    .addColumn('created_by', 'integer', (c) => c.references('accounts.id'))
    .addColumn('stopped_by', 'integer', (c) => c.references('accounts.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('landing_experiments_landing_idx').on('landing_experiments').columns(['landing_id', 'id']).execute();
  await db.schema
    .createIndex('landing_experiments_open_idx')
    .on('landing_experiments')
    .column('landing_id')
    .unique()
    .where(sql.ref('status'), '<>', 'stopped')
    .execute();

  await id(db.schema.createTable('landing_experiment_variants'), d)
    .addColumn('experiment_id', 'integer', (c) => c.notNull().references('landing_experiments.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('landing_experiment_variants_key', ['experiment_id', 'key'])
    .execute();

  await db.schema
    .createTable('visit_variants')
    .addColumn('experiment_id', 'integer', (c) => c.notNull().references('landing_experiments.id').onDelete('cascade'))
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull()) // YYYY-MM-DD in Asia/Seoul
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('visit_variants_pk', ['experiment_id', 'variant', 'day'])
    .execute();

  await db.schema.alterTable('leads').addColumn('experiment_id', 'integer').execute();
  await db.schema.alterTable('leads').addColumn('variant', 'text').execute();
  await db.schema
    .createIndex('leads_experiment_idx')
    .on('leads')
    .columns(['experiment_id', 'variant'])
    .where(sql.ref('experiment_id'), 'is not', null)
    .execute();
}
