// What the Vike hooks of the public pages read. Our server passes its database and
// secret through pageContextInit; `npm run prerender`/`vike prerender` open the database
// from DATABASE_URL / DATA_DIR.
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { PageContextServer } from 'vike/types';
import { render } from 'vike/abort';
import type { Database } from '../../server/db/schema.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/dialect.ts';
import { landingViews, openLandingUrls } from '../../server/modules/landings/landing-view.ts';
import { landingSecret, signRenderStamp } from '../../server/lib/landing-security.ts';
import type { LandingView, PrivacyPageView } from '../../contracts/landings.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Vike's pageContext is typed through its global namespace
  namespace Vike {
    interface PageContextServer {
      db?: Kysely<Database>;
      landingSecret?: Buffer;
      renderedAt?: Date;
      /** Free-form scripts are served (PUBLIC_ORIGIN is set). */
      freeScripts?: boolean;
      /** A view rendered as given (the editor preview). */
      landingView?: LandingView;
    }
  }
}

export type PageData = { kind: 'landing'; view: LandingView } | { kind: 'privacy'; view: PrivacyPageView };

let envDb: Promise<Kysely<Database> | null> | undefined;

/** The database named by the environment; null when a SQLite file does not exist yet. */
export function environmentDatabase(): Promise<Kysely<Database> | null> {
  return (envDb ??= (async () => {
    const { databaseUrl } = loadConfig();
    if (!/^postgres/.test(databaseUrl) && databaseUrl !== ':memory:' && !fs.existsSync(databaseUrl)) return null;
    return (await openDatabase({ url: databaseUrl })).db;
  })());
}

async function dbOf(pc: PageContextServer): Promise<Kysely<Database>> {
  const db = pc.db ?? (await environmentDatabase());
  if (!db) throw render(404);
  return db;
}

export async function landingData(pc: PageContextServer): Promise<PageData> {
  if (pc.landingView) return { kind: 'landing', view: pc.landingView };
  const secret = pc.landingSecret ?? landingSecret(loadConfig().dataDir);
  const { shopCode, landingCode } = pc.routeParams as { shopCode: string; landingCode: string };
  const freeScripts = pc.freeScripts ?? !!loadConfig().publicOrigin;
  const view = await landingViews(await dbOf(pc), { freeScripts }).landing(shopCode, landingCode, (id) => signRenderStamp(secret, id, pc.renderedAt ?? new Date()));
  if (!view) throw render(404);
  return { kind: 'landing', view };
}

export async function privacyData(pc: PageContextServer): Promise<PageData> {
  const { shopCode, landingCode } = pc.routeParams as { shopCode: string; landingCode: string };
  const view = await landingViews(await dbOf(pc)).privacy(shopCode, landingCode);
  if (!view) throw render(404);
  return { kind: 'privacy', view };
}

/** Paths of every landing (or privacy page) open now, for `vike prerender`. */
export async function prerenderUrls(kind: 'landing' | 'privacy'): Promise<string[]> {
  const db = await environmentDatabase();
  const paths = db ? await openLandingUrls(db) : [];
  return kind === 'landing' ? paths : paths.map((p) => `${p}/privacy`);
}
