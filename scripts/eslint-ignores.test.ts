// ESLint ignores what git ignores: a folder .gitignore names (a scratch `.tmp/`, a build) is never linted.
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('eslint.config.js', () => {
  it('ignores every path .gitignore names, at the root and deeper, and still lints the sources', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const names = fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(names).toContain('.tmp/');
    const probes = names.flatMap((n) => (n.endsWith('/') ? [`${n}x.ts`, `server/${n}x.ts`] : [n.replace('*', 'x'), `server/${n.replace('*', 'x')}`]));
    const linted = [];
    for (const p of probes) if (!(await eslint.isPathIgnored(path.join(ROOT, p)))) linted.push(p);
    expect(linted).toEqual([]);
    expect(await eslint.isPathIgnored(path.join(ROOT, 'server/main.ts'))).toBe(false);
    expect(await eslint.isPathIgnored(path.join(ROOT, 'e2e/harness.ts'))).toBe(false);
  });
});
