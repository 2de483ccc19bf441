// Keeping a server process running: npm start's supervisor (superviseServer), and what it shares
// with npm run start:cluster (scripts/cluster.mjs) — the pause before starting again a process
// that died, and the lines that say so.
import { fork } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { root } from './build-if-stale.mjs';

/**
 * Node flags every server and worker process runs with (npm start, npm run start:cluster, the
 * benchmarks). A larger young generation: a lead's request leaves short-lived garbage on the event
 * loop and on intake's writer thread, and with V8's default 16 MB semi-space they were scavenged
 * so often that GC took an eighth of the event loop's time. Three alternating runs of intake,
 * 50 connections, SQLite: 8,764 against 8,081 leads/s (mean), 8% more.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];

/** After this long, a process that dies counts as having run a while: replaced at once. */
const RAN_A_WHILE_MS = 30_000;
const MAX_PAUSE_MS = 30_000;

/**
 * The pause before starting again a process that just died (`state`: its `startedAt` and its
 * `fails` in a row, updated here). One that ran a while is replaced at once; one that keeps dying
 * early waits 0.5 s, 1 s, 2 s … up to 30 s, so a broken setting does not spin the machine.
 */
export function restartDelay(state, now = Date.now()) {
  state.fails = now - state.startedAt > RAN_A_WHILE_MS ? 1 : state.fails + 1;
  return state.fails <= 1 ? 0 : Math.min(MAX_PAUSE_MS, 500 * 2 ** (state.fails - 2));
}

/** '<who> 신호 SIGKILL로 끝났습니다 — 바로 다시 시작합니다.' (`who` ends with its particle). */
export function restartLine(who, code, signal, delay) {
  return `${who} ${signal ? `신호 ${signal}로` : `코드 ${code}로`} 끝났습니다 — ${delay ? `${delay / 1000}초 뒤` : '바로'} 다시 시작합니다.`;
}

/** The supervisor's own log lines, `[tag] …` — JSON lines like pino's with LOG_FORMAT=json. */
export function supervisorLog(tag, json = process.env.LOG_FORMAT === 'json') {
  return (line) => {
    const text = `[${tag}] ${line}`;
    process.stdout.write(json ? `${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: text })}\n` : `${text}\n`);
  };
}

/**
 * Runs the server `entry` and keeps it running (npm start). A server that crashes — a non-zero
 * exit, or a signal: SIGKILL, the kernel's OOM killer, V8 running out of heap — is logged and
 * started again at once (after restartDelay's pause if it keeps dying early); nothing a visitor
 * was told is lost, since intake answers only after its commit. SIGINT / SIGTERM are passed on
 * and stop it for good (a second one ends it at once); a clean exit (code 0) ends this process
 * too. A server that never got as far as listening has a setting or a port to fix, not a crash
 * to retry: this process ends with it.
 */
export function superviseServer(entry) {
  const log = supervisorLog('start');
  const state = { startedAt: 0, fails: 0 };
  let child = null;
  let timer = null;
  let stopping = false;
  let listenedOnce = false;

  function start() {
    timer = null;
    // An IPC channel: the server says when it listens (server/main.ts), and stops if this process goes away.
    const c = fork(entry, [], {
      cwd: root, stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { NODE_ENV: 'production', ...process.env }, execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS],
    });
    child = c;
    state.startedAt = Date.now();
    log(`서버 시작 (pid ${c.pid})`);
    c.on('message', (m) => {
      if (m === 'listening') listenedOnce = true;
    });
    c.once('exit', (code, signal) => exited(c, code, signal));
  }

  function exited(c, code, signal) {
    child = null;
    if (stopping) process.exit(code ?? 1);
    if (code === 0) {
      log(`서버(pid ${c.pid})가 정상 종료했습니다.`);
      process.exit(0);
    }
    if (!listenedOnce) {
      log(`서버가 시작하지 못했습니다 (${signal ? `신호 ${signal}` : `코드 ${code}`}). 위 로그를 확인하세요.`);
      process.exit(code || 1);
    }
    const delay = restartDelay(state);
    log(restartLine(`서버(pid ${c.pid})가`, code, signal, delay));
    timer = setTimeout(start, delay);
  }

  function stop(signal) {
    if (stopping) {
      log(`${signal}: 서버를 바로 끝냅니다.`);
      child?.kill('SIGKILL');
      return;
    }
    stopping = true;
    if (timer) clearTimeout(timer);
    if (!child) process.exit(0);
    child.kill(signal);
  }
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  start();
}
