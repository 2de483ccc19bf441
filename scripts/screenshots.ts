// npm run screenshots [--as=<loginId>] [path …]: starts the built product with demo data, logs in
// (as the administrator, or as a demo account with --as) and saves full-page PNGs of the given
// screens under screenshots/, at 1440×900.
import { DEMO_PASSWORD, launchBrowser, login, newPage, screenshot, startProduct } from '../e2e/harness.ts';

const args = process.argv.slice(2);
const as = args.find((a) => a.startsWith('--as='))?.slice(5);
const paths = args.filter((a) => !a.startsWith('--'));
const targets = paths.length ? paths : ['/bclog', '/dashboard', '/client-setting', '/permission-setting', '/no-such-page'];
const product = await startProduct();
const browser = await launchBrowser();
try {
  const { page } = await newPage(browser, product.url, { viewport: { width: 1440, height: 900 } });
  await page.goto('/bclog');
  await page.waitForSelector('form');
  await screenshot(page, 'bclog');
  if (as) await login(page, as, DEMO_PASSWORD);
  else await login(page);
  for (const p of targets.filter((t) => t !== '/bclog')) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(600);
    const name = (as ? `${as}-` : '') + (p.replace(/^\//, '').replace(/[/?=&]/g, '_') || 'root');
    await screenshot(page, name);
    console.log(`screenshots/${name}.png`);
  }
} finally {
  await browser.close();
  await product.stop();
}
