// npm run bench: what the back office costs to load, read from the SPA build's manifest.
// Prints the gzip bytes of the JavaScript /bclog needs (goal ≤ 160 KB) and, for every
// screen, its own chunk and what it adds on top of the shell it opens in. No server, no database:
// --smoke (npm run bench:smoke) is the same run.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { SCREENS } from '../contracts/screens.ts';

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  css?: string[];
}

const dist = path.resolve(import.meta.dirname, '../dist/spa');
const manifestFile = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestFile)) {
  console.error('dist/spa/.vite/manifest.json missing: run `npm run build` first');
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, Chunk>;
const gzCache = new Map<string, number>();
const gz = (file: string) => {
  if (!gzCache.has(file)) gzCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length);
  return gzCache.get(file)!;
};

/** The chunk keys a set of chunks load statically (imports are preloaded with them). */
function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const k of keys) {
    if (seen.has(k) || !manifest[k]) continue;
    seen.add(k);
    closure(manifest[k].imports ?? [], seen);
  }
  return seen;
}
const sum = (keys: Iterable<string>) => [...keys].reduce((n, k) => n + gz(manifest[k]!.file), 0);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const keyOf = (suffix: string) => Object.keys(manifest).find((k) => k.endsWith(suffix));

const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
const login = keyOf('screens/bclog/index.tsx')!;
const layout = keyOf('layouts/app-layout.tsx')!;
const bclog = closure([entry, login]);
const shell = closure([entry, layout]);

console.log('Back-office JavaScript (gzip -9, from dist/spa/.vite/manifest.json)');
console.log(`  /bclog needs                         ${kb(sum(bclog)).padStart(10)}   goal ≤ 160 KB  ${sum(bclog) <= 160 * 1024 ? 'OK' : 'OVER'}`);
console.log(`  entry chunk                          ${kb(sum([entry])).padStart(10)}`);
console.log(`  shell after login                    ${kb(sum(shell)).padStart(10)}   (entry + layout + antd core)`);
console.log('');
console.log(`  ${'screen'.padEnd(38)} ${'own chunk'.padStart(10)} ${'adds to shell'.padStart(14)}`);
const rows: Array<[string, number, number]> = [];
for (const s of SCREENS) {
  const key = keyOf(`screens/${s.key}/index.tsx`);
  if (!key) {
    rows.push([`/${s.key} (pending)`, gz(manifest[keyOf('layouts/pending.tsx')!]!.file), 0]);
    continue;
  }
  const extra = [...closure([key])].filter((k) => !shell.has(k));
  rows.push([`/${s.key}`, gz(manifest[key]!.file), sum(extra)]);
}
for (const [name, own, adds] of rows) console.log(`  ${name.padEnd(38)} ${kb(own).padStart(10)} ${kb(adds).padStart(14)}`);
