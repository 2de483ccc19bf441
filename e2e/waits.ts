// How long the browser tests wait, in one place. They wait for the state they need (a text, a
// row, a URL), never a fixed time for the UI; these are only the limits, set for a machine four
// times slower than a loaded one (npm test at a load of 12–15 on 2 cores: up to 10 s for a
// dashboard, 5 s for a screen of a walk).

/** expect.poll, a locator's waitFor, a navigation: a state the UI reaches. */
export const WAIT_MS = 40_000;
/** One screen of a walk over many (open it, let it settle, check it). */
export const SCREEN_MS = 20_000;
/** A test that does a few things (its own timeout for longer ones: a walk, an import). */
export const TEST_MS = 180_000;
/** Starting the product and the browser (beforeAll), stopping them. */
export const HOOK_MS = 180_000;
