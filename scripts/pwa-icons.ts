// The back office's app icons (manifest.webmanifest, apple-touch-icon) drawn from one SVG with
// sharp: `npx tsx scripts/pwa-icons.ts` after changing admin-spa/pwa-icon.svg, then commit the
// PNGs under admin-spa/public/icons (the build copies public/ as it is).
import path from 'node:path';
import sharp from 'sharp';

const ROOT = path.resolve(import.meta.dirname, '..');
const svg = path.join(ROOT, 'admin-spa/pwa-icon.svg');
const out = (name: string) => path.join(ROOT, 'admin-spa/public/icons', name);

// The SVG fills its square and keeps its drawing inside the maskable safe zone, so one drawing serves every purpose.
for (const [name, size] of [['icon-192.png', 192], ['icon-512.png', 512], ['icon-maskable-512.png', 512], ['apple-touch-icon.png', 180]] as const) {
  await sharp(svg, { density: 300 }).resize(size, size).png({ compressionLevel: 9 }).toFile(out(name));
  console.log(name, size);
}
