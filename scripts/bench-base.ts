// A base commit to measure beside the working tree (`npm run bench:landing -- --base=<commit>`):
// its files (git archive, so the repository gains no worktree entry) in a directory under the
// system's temp folder, its node_modules, and its build — kept there, keyed by the commit, so the
// next run against the same base starts at once.
//
// node_modules: when the base's package-lock.json is this tree's, a symlink to this tree's. When
// it differs only in top-level packages (a package added, removed or at another version), a
// directory of symlinks to this tree's packages with the base's own versions of those few
// unpacked in place (`npm pack`, from the npm cache when it has them). Otherwise `npm ci
// --prefer-offline` into it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './bench-kit.ts';

export interface BaseTree {
  /** The full commit id and its first line. */
  commit: string;
  subject: string;
  dir: string;
  /** Its server as `npm start` runs it. */
  entry: string;
}

function run(cmd: string, args: string[], cwd: string, o: { input?: Buffer } = {}): string {
  const r = spawnSync(cmd, args, { cwd, input: o.input, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed: ${r.stderr?.toString() || r.error?.message}`);
  return r.stdout.toString();
}

type LockPackages = Record<string, { version?: string; resolved?: string; link?: boolean }>;
const packagesOf = (lockJson: string): LockPackages => (JSON.parse(lockJson) as { packages: LockPackages }).packages;

/** The base's top-level packages that this tree's node_modules lacks or has at another version; null when a nested one differs too. */
function topLevelDifferences(base: LockPackages, ours: LockPackages): Array<{ name: string; version: string }> | null {
  const out: Array<{ name: string; version: string }> = [];
  for (const [key, p] of Object.entries(base)) {
    if (!key || p.link || ours[key]?.version === p.version) continue;
    const name = key.slice('node_modules/'.length);
    if (name.includes('/node_modules/')) return null;
    out.push({ name, version: p.version! });
  }
  return out;
}

/** node_modules for the base: see the header. */
function installModules(dir: string, log: (s: string) => void): void {
  const ourModules = path.join(ROOT, 'node_modules');
  const target = path.join(dir, 'node_modules');
  const baseLock = fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
  const ourLock = fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8');
  if (baseLock === ourLock) {
    fs.symlinkSync(fs.realpathSync(ourModules), target);
    return;
  }
  const differ = topLevelDifferences(packagesOf(baseLock), packagesOf(ourLock));
  if (!differ) {
    log('  (base: its dependencies differ deeply — npm ci --prefer-offline)');
    run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], dir);
    return;
  }
  log(`  (base: this tree's node_modules, with its own ${differ.map((d) => `${d.name}@${d.version}`).join(', ') || 'nothing'})`);
  const real = fs.realpathSync(ourModules);
  fs.mkdirSync(target);
  const own = new Set(differ.map((d) => d.name));
  for (const entry of fs.readdirSync(real)) {
    if (entry.startsWith('@')) {
      fs.mkdirSync(path.join(target, entry));
      for (const sub of fs.readdirSync(path.join(real, entry))) {
        if (!own.has(`${entry}/${sub}`)) fs.symlinkSync(path.join(real, entry, sub), path.join(target, entry, sub));
      }
    } else if (!own.has(entry)) {
      fs.symlinkSync(path.join(real, entry), path.join(target, entry));
    }
  }
  const packs = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-base-packs-'));
  try {
    for (const d of differ) {
      const tgz = run('npm', ['pack', '--prefer-offline', '--silent', `${d.name}@${d.version}`], packs).trim().split('\n').pop()!;
      const into = path.join(target, d.name);
      fs.mkdirSync(into, { recursive: true });
      run('tar', ['-xzf', path.join(packs, tgz), '-C', into, '--strip-components=1'], packs);
    }
  } finally {
    fs.rmSync(packs, { recursive: true, force: true });
  }
}

/**
 * The base commit checked out, with node_modules, built (`npm run build` of its own scripts).
 * The first run builds (minutes); later runs find it ready.
 */
export function prepareBase(ref: string, log: (s: string) => void = console.log): BaseTree {
  const commit = run('git', ['rev-parse', '--verify', `${ref}^{commit}`], ROOT).trim();
  const subject = run('git', ['log', '-1', '--format=%s', commit], ROOT).trim();
  const dir = path.join(os.tmpdir(), `leadroom-bench-base-${commit.slice(0, 12)}`);
  const entry = path.join(dir, 'dist/app/server/main.js');
  const ready = path.join(dir, '.bench-ready');
  if (fs.existsSync(ready) && fs.existsSync(entry)) return { commit, subject, dir, entry };
  log(`  (base ${commit.slice(0, 12)}: checking out and building in ${dir} — a few minutes, once)`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  run('tar', ['-x', '-C', dir], ROOT, { input: spawnSync('git', ['archive', '--format=tar', commit], { cwd: ROOT, maxBuffer: 1024 * 1024 * 1024 }).stdout });
  installModules(dir, log);
  const t0 = Date.now();
  run('npm', ['run', 'build', '--silent'], dir);
  log(`  (base built in ${Math.round((Date.now() - t0) / 1000)} s)`);
  fs.writeFileSync(ready, new Date().toISOString());
  return { commit, subject, dir, entry };
}
