// The router finds a screen by its folder: a catalogue entry without one would route to 404.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SCREENS } from '@contracts/screens.ts';

it('has a folder with an index.tsx for every catalogue screen', () => {
  const missing = SCREENS.filter((s) => !existsSync(join(import.meta.dirname, 'screens', s.key, 'index.tsx'))).map((s) => s.key);
  expect(missing).toEqual([]);
});
