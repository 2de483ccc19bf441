// npm run prerender — every open landing and its privacy page, rendered through Vike from
// the database (DATABASE_URL, else <DATA_DIR>/leadroom.sqlite), into dist/client/view/… with
// the images they show in dist/client/uploads/, ready for a CDN or `serve`.
// Needs the Vike build (npm run build:pages). Forms post to /api/public/leads on the same
// host; their tokens are signed with the data directory's secret (or LANDING_SECRET), so
// the server receiving the posts must share it.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/dialect.ts';
import { pageRenderer } from '../server/modules/landings/public/renderer.ts';
import { prerenderLandings } from '../server/modules/landings/public/prerender.ts';
import { landingSecret } from '../server/lib/render-stamp.ts';

const config = loadConfig();
if (!fs.existsSync(path.join(config.distDir, 'server/entry.mjs'))) {
  console.error('Vike 빌드가 없습니다. 먼저 `npm run build:pages`를 실행하세요.');
  process.exit(1);
}
if (!/^postgres/.test(config.databaseUrl) && !fs.existsSync(config.databaseUrl)) {
  console.error(`데이터베이스가 없습니다: ${config.databaseUrl} (먼저 npm start 로 만들거나 DATABASE_URL을 지정하세요)`);
  process.exit(1);
}

const handle = await openDatabase({ url: config.databaseUrl });
try {
  const started = performance.now();
  const outDir = path.join(config.distDir, 'client');
  const result = await prerenderLandings({
    db: handle.db, renderer: await pageRenderer(config.distDir), secret: landingSecret(config.dataDir), freeScripts: !!config.publicOrigin, outDir,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const p of result.pages) console.log(`  ${p}`);
  console.log(`${result.pages.length}개 페이지와 이미지 ${result.uploads}개를 ${path.relative(process.cwd(), outDir)}에 만들었습니다 (${seconds}초).`);
} finally {
  await handle.close();
}
