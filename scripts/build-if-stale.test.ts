// What a newcomer's `npm install && npm start` prints: no install-script notice (every package
// whose install script runs is declared in allowScripts, as npm 11 asks), and the first build
// named step by step.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSteps, duration } from './build-if-stale.mjs';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

interface LockEntry {
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
}

/** Whether npm would run the entry's scripts here (a package for another platform is never installed). */
const installsHere = (e: LockEntry) =>
  (!e.os || e.os.includes(process.platform)) && (!e.cpu || e.cpu.includes(process.arch));

describe('npm install', () => {
  it('declares every package whose install script runs in allowScripts (better-sqlite3, esbuild, sharp)', () => {
    const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };
    const withScripts = Object.entries(lock.packages)
      .filter(([at, e]) => at && e.hasInstallScript && installsHere(e))
      .map(([at]) => at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts).toEqual(expect.arrayContaining(['better-sqlite3', 'esbuild', 'sharp']));
    const allowed = (read('package.json') as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    expect([...new Set(withScripts)].filter((name) => allowed[name] !== true)).toEqual([]);
  });
});

describe('the first build', () => {
  it('runs the steps of the build script one by one, each with a name a person reads', () => {
    const steps = buildSteps();
    expect(steps.map((s) => s.name)).toEqual(['build:pages', 'build:spa', 'build:server']);
    for (const s of steps) expect(s.label).toMatch(/[가-힣]/);
    expect([duration(9), duration(60), duration(113)]).toEqual(['9초', '1분 0초', '1분 53초']);
  });
});
