// npm run screenshots [path …]: starts the built product with demo data, logs in as the
// administrator and saves full-page PNGs of the given screens under screenshots/.
import { launchBrowser, login, newPage, screenshot, startProduct } from '../e2e/harness.ts';

const paths = process.argv.slice(2);
const targets = paths.length ? paths : ['/bclog', '/dashboard', '/client-setting', '/permission-setting', '/no-such-page'];
const product = await startProduct();
const browser = await launchBrowser();
try {
  const { page } = await newPage(browser, product.url);
  await page.goto('/bclog');
  await page.waitForSelector('form');
  await screenshot(page, 'bclog');
  await login(page);
  for (const p of targets.filter((t) => t !== '/bclog')) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(600);
    const name = p.replace(/^\//, '').replace(/[/?=&]/g, '_') || 'root';
    await screenshot(page, name);
    console.log(`screenshots/${name}.png`);
  }
} finally {
  await browser.close();
  await product.stop();
}
