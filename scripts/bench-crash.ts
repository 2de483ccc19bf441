// npm run bench:crash — kills the server with SIGKILL in the middle of intake load,
// restarts it on the same data, and shows that every acknowledged (2xx) lead is stored;
// on SQLite and on PostgreSQL (a fresh schema of BENCH_DATABASE_URL, dropped afterwards).
// Leads committed but not yet answered when the process died may also be there: the
// visitor saw an error and may submit again (then it is flagged as a duplicate).
// --smoke (npm run bench:smoke): the kill comes after 1 s of load instead of 3.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DEMO_LANDING_PATH as PAGE, demoLead, eachEngine, ENGINE_LABEL, freshSchema, intakeLoad, PG_URL, sized, startBench, startServer, storedLeads, tokenOf,
  type Child, type Engine,
} from './bench-kit.ts';

const LOAD_MS = sized(3000, 1000);
const lead = (token: string) => demoLead(token, '0107');

const bench = startBench('Leadroom crash test — SIGKILL under intake load, restart, every acknowledged lead stored', ENGINE_LABEL);

async function crash(engine: Engine) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-crash-'));
  const schema = engine === 'postgres' ? await freshSchema('bench_crash') : null;
  const env = { INTAKE_RATE_LIMIT: '0', ...(schema ? { DATABASE_URL: schema.url } : {}) };
  let server: Child | undefined;
  try {
    server = await startServer({ dataDir: work, env });
    const token = await tokenOf(server.url + PAGE);
    await new Promise((r) => setTimeout(r, 2100)); // the form's minimum fill time

    const stop = new AbortController();
    const load = intakeLoad({ url: `${server.url}/api/public/leads`, connections: 20, durationMs: 60_000, body: lead(token), signal: stop.signal });
    await new Promise((r) => setTimeout(r, LOAD_MS));
    const pid = server.process.pid;
    await server.kill();
    stop.abort();
    const result = await load;
    console.log(`  SIGKILL sent to pid ${pid} after ${LOAD_MS / 1000} s of load: ${result.ok} leads acknowledged, ${result.errors} requests cut off.`);

    server = await startServer({ dataDir: work, env });
    const after = await fetch(`${server.url}/api/public/leads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: lead(token)(9_999_999).json });
    console.log(`  restarted (pid ${server.process.pid}): a new submission answers ${after.status}.`);
    await server.stop();

    const stored = await storedLeads(schema ? { url: PG_URL, pgSchema: schema.name } : { url: path.join(work, 'leadroom.sqlite') }, '0107');
    const missing = result.acked.filter((p) => !stored.has(p));
    const withoutEvent = result.acked.filter((p) => stored.get(p) === false);
    bench.record('acked', `leads acknowledged in ${LOAD_MS / 1000} s before the kill · requests cut off`, '', engine, `${result.ok} · ${result.errors}`);
    bench.record('lost', 'acknowledged but missing after the restart · without their created event', '0 · 0', engine, `${missing.length} · ${withoutEvent.length}`,
      !missing.length && !withoutEvent.length);
    bench.record('unanswered', 'committed but never answered (cut off by the kill)', '', engine, String(stored.size - 1 - result.ok));
    bench.record('after', 'a new submission after the restart', '201', engine, String(after.status), after.status === 201);
    bench.check(`${ENGINE_LABEL[engine]}: every acknowledged lead survived the crash (${missing.length} missing, ${withoutEvent.length} without their event), ` +
      `some were acknowledged (${result.ok}), and the restarted server takes leads (${after.status})`, !missing.length && !withoutEvent.length && result.ok > 0 && after.status === 201);
  } finally {
    await server?.stop();
    await schema?.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await eachEngine(bench, crash);
bench.finish();
