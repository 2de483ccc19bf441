// Writes .br and .gz beside every compressible SPA asset, so the server sends them
// as they are (@fastify/static preCompressed) instead of compressing on each request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../dist/spa');
let count = 0;
function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (/\.(js|css|svg|json|txt)$/.test(entry.name) && fs.statSync(file).size > 1024) {
      const body = fs.readFileSync(file);
      fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
      fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      count++;
    }
  }
}
walk(root);
console.log(`precompressed ${count} SPA assets`);
