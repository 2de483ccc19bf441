// The DB 현황 export on a period of bulk data (~100,000 leads): one XLSX over real HTTP, read to
// its end, with the process's resident memory sampled every 50 ms meanwhile — the bench runs
// the server in this same process, so the peak is the export's (goal ≤ 15 s, ≤ 300 MB).
// The export is recorded in access_events like any other (reason '성능 측정').
import { pathOf } from '../contracts/endpoint.ts';
import { EXPORT_ROWS_HEADER, leadExportApi } from '../contracts/lead-export.ts';

export interface ExportFigure {
  ms: number;
  rows: number;
  bytes: number;
  peakRssMb: number;
}

/** Exports `from`…`to` (Seoul days) of a shop as XLSX with the session `cookie` (a type with the export right). */
export async function benchExport(base: string, cookie: string, shopId: number, from: string, to: string): Promise<ExportFigure> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t0 = performance.now();
  try {
    const res = await fetch(base + pathOf(leadExportApi.export.path, { shopId }), {
      method: 'POST',
      // The server refuses writes from another site: the Origin is its own.
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ from, to, format: 'xlsx', reason: '성능 측정 (bench)' }),
    });
    if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
    const rows = Number(res.headers.get(EXPORT_ROWS_HEADER));
    let bytes = 0;
    const reader = res.body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
    const ms = performance.now() - t0;
    peak = Math.max(peak, process.memoryUsage().rss);
    return { ms, rows, bytes, peakRssMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}
