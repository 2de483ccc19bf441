// 시스템 예약: scheduling (create, change while it has not run, cancel with a reason), the
// banner's notices, and running what is due (executeDue, the worker's job). Every run is
// claimed by a conditional update (scheduled → running where it still is scheduled), so of any
// number of workers — and a person cancelling meanwhile — exactly one acts on a reservation.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, badRequest, conflict, foundOr404 } from '../../lib/errors.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { forgetMaintenanceWindows } from '../../db/maintenance.ts';
import { audit, auditBy, type Actor } from '../audit/audit.service.ts';
import type { ModuleLinks } from '../../links.ts';
import { quoted } from '../../../contracts/korean.ts';
import {
  cancellable, isExperimentKind, isLandingKind, lastsAWhile, MAINTENANCE_NOTICE_HOURS, START_SLACK_MS,
  type Notices, type ReservationKind, type ReservationStatus, type SystemReservation, type SystemReservationInput, type SystemReservationListQuery,
} from '../../../contracts/system-reservations.ts';
import { payloadOf, systemReservationsRepository, type ReservationListRow, type ReservationPayload, type ReservationRow } from './system-reservations.repository.ts';

/** A landing open/close still running after this long lost its process mid-run. */
const STALLED_AFTER_MS = 5 * 60_000;
/** Reservations one run acts on at most (the rest at the next). */
const DUE_BATCH = 50;

const NOT_FOUND = '예약을 찾을 수 없습니다.';
const EXPERIMENT_STOP_HERE = '실험 종료 예약은 랜딩 관리의 A/B 실험에서 만들고, 여기서는 일시와 제목을 바꾸거나 취소합니다.';
const TARGET = 'system-reservation';
/** "완료된 예약은 수정할 수 없습니다." */
const RESERVATION_STATUS_WORD: Partial<Record<ReservationStatus, string>> = {
  running: '진행 중인', done: '완료된', ended: '조기 종료된', cancelled: '취소된', failed: '실패한',
};

export interface ReservationDeps {
  setLandingStatus?: ModuleLinks['setLandingStatus'];
  stopExperiment?: ModuleLinks['stopExperiment'];
  /** An unexpected error while running a reservation (it is recorded as failed either way). */
  onError?: (err: unknown) => void;
}

/** One reservation a run acted on. */
export interface ReservationRun {
  id: number;
  kind: ReservationKind;
  status: ReservationStatus;
  result: string | null;
}

type Lookups = {
  landings: Map<number, NonNullable<SystemReservation['landing']>>;
  experiments: Map<number, string>;
  accountTypes: Map<number, { id: number; name: string }>;
};

function toItem(r: ReservationListRow, l: Lookups): SystemReservation {
  const p = payloadOf(r);
  return {
    id: r.id, kind: r.kind, title: r.title, startsAt: r.starts_at, endsAt: r.ends_at, message: p.message ?? null,
    landingId: p.landingId ?? null, landing: (p.landingId && l.landings.get(p.landingId)) || null,
    experimentId: p.experimentId ?? null, experimentName: (p.experimentId && l.experiments.get(p.experimentId)) || null,
    accountTypes: (p.accountTypeIds ?? []).map((id) => l.accountTypes.get(id) ?? { id, name: '(삭제된 유형)' }),
    screen: p.screen ?? null,
    status: r.status, executedAt: r.executed_at, finishedAt: r.finished_at, result: r.result,
    createdBy: r.created_by_name, createdAt: r.created_at, updatedAt: r.updated_at, cancelledAt: r.cancelled_at,
  };
}

const payloadFor = (i: SystemReservationInput): ReservationPayload =>
  isExperimentKind(i.kind) ? { landingId: i.landingId, experimentId: i.experimentId } : isLandingKind(i.kind) ? { landingId: i.landingId } : i.kind === 'announcement' ? { message: i.message, accountTypeIds: i.accountTypeIds, screen: i.screen } : { message: i.message };

/** Running reservations: starting, ending, the landing runs, each step recorded without an account. */
function reservationRuns(db: Kysely<Database>, clock: Clock, deps: ReservationDeps) {
  const repo = systemReservationsRepository(db);

  /** Records a run's step without an account (the system did it), with the change, in one transaction. */
  async function systemStep(r: ReservationRow, from: ReservationStatus[], changes: Parameters<typeof repo.transition>[2], action: string, at: Date): Promise<boolean> {
    const won = await inTransaction(db, async (trx) => {
      if (!(await systemReservationsRepository(trx).transition(r.id, from, { ...changes, updated_at: at.toISOString() }))) return false;
      await audit(trx, { accountId: null, action, target: TARGET, targetId: r.id, detail: { kind: r.kind, title: r.title, status: changes.status, result: changes.result ?? null } }, at);
      return true;
    });
    if (won && r.kind === 'maintenance') forgetMaintenanceWindows(db);
    return won;
  }

  /** Opens or closes the landing; answers the result to record and whether it worked. */
  async function runLanding(r: ReservationRow): Promise<{ status: ReservationStatus; result: string }> {
    const open = r.kind === 'landing-open';
    const landingId = payloadOf(r).landingId;
    const [landing] = landingId ? await repo.landings([landingId]) : [];
    if (!landing) return { status: 'failed', result: '랜딩을 찾을 수 없어 실행하지 못했습니다.' };
    if (!deps.setLandingStatus) throw new Error('setLandingStatus link missing');
    try {
      await deps.setLandingStatus({ shopId: landing.shop_id, landingId: landing.id }, open ? 'open' : 'closed', `시스템 예약 #${r.id} ${r.title}`);
      return { status: 'done', result: `${landing.shop_name} ${quoted(landing.title, '을/를')} ${open ? '게시' : '종료'}했습니다.` };
    } catch (err) {
      if (!(err instanceof AppError)) deps.onError?.(err);
      const why = err instanceof AppError ? err.message : '처리 중 오류가 발생했습니다.';
      return { status: 'failed', result: `${open ? '게시' : '종료'}하지 못했습니다: ${why}` };
    }
  }

  /** Stops the experiment through the landings module (archived results, no promotion, audited as the system's with the reservation). */
  async function runExperimentStop(r: ReservationRow): Promise<{ status: ReservationStatus; result: string }> {
    const { landingId, experimentId } = payloadOf(r);
    if (!landingId || !experimentId) return { status: 'failed', result: '실험을 찾을 수 없어 실행하지 못했습니다.' };
    if (!deps.stopExperiment) throw new Error('stopExperiment link missing');
    try {
      return { status: 'done', result: await deps.stopExperiment({ landingId, experimentId }, r.id, `시스템 예약 #${r.id} ${r.title}`) };
    } catch (err) {
      if (!(err instanceof AppError)) deps.onError?.(err);
      return { status: 'failed', result: `실험을 종료하지 못했습니다: ${err instanceof AppError ? err.message : '처리 중 오류가 발생했습니다.'}` };
    }
  }

  async function start(r: ReservationRow, now: Date): Promise<ReservationRun | null> {
    const iso = now.toISOString();
    if (isLandingKind(r.kind) || isExperimentKind(r.kind)) {
      // Claimed first, acted on after: a run that dies between the two is reported (stalled), never repeated.
      if (!(await repo.transition(r.id, ['scheduled'], { status: 'running', executed_at: iso, updated_at: iso }))) return null;
      const { status, result } = await (isExperimentKind(r.kind) ? runExperimentStop(r) : runLanding(r));
      const at = clock();
      await systemStep(r, ['running'], { status, result, finished_at: at.toISOString() }, `${TARGET}.run`, at);
      return { id: r.id, kind: r.kind, status, result };
    }
    if (!(await systemStep(r, ['scheduled'], { status: 'running', executed_at: iso }, `${TARGET}.start`, now))) return null;
    // A window the worker missed whole (none ran meanwhile) ends in the same run.
    if (r.ends_at && r.ends_at <= iso) return end(r, now);
    return { id: r.id, kind: r.kind, status: 'running', result: null };
  }

  async function end(r: ReservationRow, now: Date): Promise<ReservationRun | null> {
    const result = r.kind === 'maintenance' ? '점검을 마쳤습니다.' : '게시 기간이 끝나 내렸습니다.';
    if (!(await systemStep(r, ['running'], { status: 'done', result, finished_at: now.toISOString() }, `${TARGET}.finish`, now))) return null;
    return { id: r.id, kind: r.kind, status: 'done', result };
  }

  return {
    /**
     * Runs what is due at the clock's time: starts reservations whose time came, ends windows
     * whose end came, and reports landing runs a dead process left half done. Safe with any
     * number of workers at once: each step is claimed by a conditional update.
     */
    async executeDue(): Promise<ReservationRun[]> {
      const now = clock();
      const iso = now.toISOString();
      const runs: ReservationRun[] = [];
      for (const r of await repo.stalled(new Date(now.getTime() - STALLED_AFTER_MS).toISOString())) {
        const result = `실행 도중 중단되어 결과를 알 수 없습니다. ${isExperimentKind(r.kind) ? '실험' : '랜딩'} 상태를 확인하세요.`;
        if (await systemStep(r, ['running'], { status: 'failed', result, finished_at: iso }, `${TARGET}.run`, now)) runs.push({ id: r.id, kind: r.kind, status: 'failed', result });
      }
      for (const r of await repo.due(iso, DUE_BATCH)) {
        const run = r.status === 'scheduled' ? await start(r, now) : await end(r, now);
        if (run) runs.push(run);
      }
      return runs;
    },
  };
}

export function systemReservationsService(db: Kysely<Database>, clock: Clock, deps: ReservationDeps = {}) {
  const repo = systemReservationsRepository(db);

  async function lookups(rows: ReservationRow[]): Promise<Lookups> {
    const payloads = rows.map(payloadOf);
    const landingIds = [...new Set(payloads.map((p) => p.landingId).filter((id): id is number => !!id))];
    const typeIds = [...new Set(payloads.flatMap((p) => p.accountTypeIds ?? []))];
    const experimentIds = [...new Set(payloads.map((p) => p.experimentId).filter((id): id is number => !!id))];
    const [landings, types, experiments] = await Promise.all([repo.landings(landingIds), typeIds.length ? repo.accountTypes(typeIds) : [], repo.experiments(experimentIds)]);
    return {
      experiments: new Map(experiments.map((e) => [e.id, e.name])),
      landings: new Map(landings.map((x) => [x.id, { id: x.id, title: x.title, landingCode: x.landing_code, status: x.status, shopId: x.shop_id, shopName: x.shop_name }])),
      accountTypes: new Map(types.map((t) => [t.id, { id: t.id, name: t.name }])),
    };
  }

  async function get(id: number): Promise<SystemReservation> {
    const row = await foundOr404(repo.find(id), NOT_FOUND);
    return toItem(row, await lookups([row]));
  }

  /** The input's rules that need the clock and the database: a start ahead, a landing and account types that exist. */
  async function check(i: SystemReservationInput, current?: ReservationRow) {
    const fields: Record<string, string> = {};
    // An experiment's stop is made from its experiment (one per experiment); here only its time and title change.
    if (isExperimentKind(i.kind) || (current && isExperimentKind(current.kind))) {
      const p = current ? payloadOf(current) : null;
      if (!p || current!.kind !== i.kind || p.experimentId !== i.experimentId || p.landingId !== i.landingId) {
        throw badRequest(EXPERIMENT_STOP_HERE, { kind: EXPERIMENT_STOP_HERE });
      }
    }
    if (Date.parse(i.startsAt) < clock().getTime() - START_SLACK_MS) fields.startsAt = '시작 일시는 지금 이후로 잡으세요.';
    if (i.landingId && !(await repo.landings([i.landingId])).length) fields.landingId = '랜딩을 찾을 수 없습니다.';
    if (i.accountTypeIds.length && (await repo.accountTypes(i.accountTypeIds)).length !== i.accountTypeIds.length) {
      fields.accountTypeIds = '없는 계정 유형이 있습니다. 다시 선택하세요.';
    }
    if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0]!, fields);
  }

  const columns = (i: SystemReservationInput) => ({ kind: i.kind, title: i.title, starts_at: i.startsAt, ends_at: i.endsAt, payload: JSON.stringify(payloadFor(i)) });
  const detailOf = (i: SystemReservationInput) => ({ kind: i.kind, title: i.title, startsAt: i.startsAt, endsAt: i.endsAt, ...payloadFor(i) });

  return {
    get,

    async list(q: SystemReservationListQuery) {
      const page = await repo.list(q);
      const l = await lookups(page.rows);
      return { items: page.rows.map((r) => toItem(r, l)), total: page.total };
    },

    async options() {
      const [landings, types] = await Promise.all([repo.allLandings(), repo.accountTypes()]);
      return {
        landings: landings.map((x) => ({ id: x.id, title: x.title, landingCode: x.landing_code, status: x.status, shopId: x.shop_id, shopName: x.shop_name })),
        accountTypes: types.map((t) => ({ id: t.id, name: t.name, area: t.area, active: !!t.active })),
      };
    },

    async create(input: SystemReservationInput, actor: Actor) {
      await check(input);
      const at = clock();
      const now = at.toISOString();
      const id = await inTransaction(db, async (trx) => {
        const { id } = await systemReservationsRepository(trx).insert({ ...columns(input), created_by: actor.id, created_at: now, updated_at: now });
        await auditBy(trx, actor, { action: `${TARGET}.create`, target: TARGET, targetId: id, detail: detailOf(input) }, at);
        return id;
      });
      if (input.kind === 'maintenance') forgetMaintenanceWindows(db);
      return get(id);
    },

    async update(id: number, input: SystemReservationInput, actor: Actor) {
      const current = await foundOr404(repo.find(id), NOT_FOUND);
      if (current.status !== 'scheduled') throw conflict(`${RESERVATION_STATUS_WORD[current.status] ?? '이미 실행된'} 예약은 수정할 수 없습니다.`);
      await check(input, current);
      const at = clock();
      const changed = await inTransaction(db, async (trx) => {
        // Still scheduled as it is saved: a worker that started it meanwhile wins.
        if (!(await systemReservationsRepository(trx).transition(id, ['scheduled'], { ...columns(input), updated_at: at.toISOString() }))) return false;
        if (input.experimentId) await systemReservationsRepository(trx).setExperimentStop(input.experimentId, input.startsAt);
        await auditBy(trx, actor, { action: `${TARGET}.update`, target: TARGET, targetId: id, detail: detailOf(input) }, at);
        return true;
      });
      if (!changed) throw conflict('방금 실행이 시작되어 수정할 수 없습니다.');
      if (input.kind === 'maintenance' || current.kind === 'maintenance') forgetMaintenanceWindows(db);
      return get(id);
    },

    /** Before it runs, or — a maintenance window or an announcement — while it is under way (it ends now). */
    async cancel(id: number, reason: string, actor: Actor) {
      const current = await foundOr404(repo.find(id), NOT_FOUND);
      if (!cancellable(current)) throw conflict(`${RESERVATION_STATUS_WORD[current.status] ?? '이미 실행된'} 예약은 취소할 수 없습니다.`);
      const at = clock();
      const now = at.toISOString();
      const from: ReservationStatus[] = lastsAWhile(current.kind) ? ['scheduled', 'running'] : ['scheduled'];
      const cancelled = await inTransaction(db, async (trx) => {
        // Under way, it ran: it is ended early (조기 종료), not cancelled — the record says what happened.
        const early = current.status === 'running';
        const changes = early
          ? { status: 'ended' as const, finished_at: now, updated_at: now, result: `조기 종료 사유: ${reason}` }
          : { status: 'cancelled' as const, cancelled_at: now, updated_at: now, result: `취소 사유: ${reason}` };
        if (!(await systemReservationsRepository(trx).transition(id, from, changes))) return false;
        const { experimentId } = payloadOf(current);
        if (isExperimentKind(current.kind) && experimentId) await systemReservationsRepository(trx).setExperimentStop(experimentId, null);
        await auditBy(trx, actor, { action: `${TARGET}.${early ? 'end-early' : 'cancel'}`, target: TARGET, targetId: id, detail: { kind: current.kind, title: current.title, reason, was: current.status } }, at);
        return true;
      });
      if (!cancelled) throw conflict('방금 실행되어 취소할 수 없습니다.');
      if (current.kind === 'maintenance') forgetMaintenanceWindows(db);
      return get(id);
    },

    /**
     * What the back office's banner shows `actor`: maintenance due within a day or under way, and
     * its announcements — of its type (or for all), and about no screen or one `canOpen` lets it open.
     */
    async notices(actor: Actor, canOpen: (screen: string) => boolean): Promise<Notices> {
      const now = clock();
      const iso = now.toISOString();
      const rows = await repo.notices(iso, new Date(now.getTime() + MAINTENANCE_NOTICE_HOURS * 3600_000).toISOString());
      const maintenance: Notices['maintenance'] = [];
      const announcements: Notices['announcements'] = [];
      for (const r of rows) {
        const p = payloadOf(r);
        const notice = { id: r.id, title: r.title, message: p.message ?? null, startsAt: r.starts_at, endsAt: r.ends_at! };
        if (r.kind === 'maintenance') maintenance.push({ ...notice, running: r.starts_at <= iso });
        else if ((!p.accountTypeIds?.length || p.accountTypeIds.includes(actor.accountTypeId)) && (!p.screen || canOpen(p.screen))) announcements.push(notice);
      }
      return { maintenance, announcements, maintenanceExempt: actor.superadmin };
    },

    ...reservationRuns(db, clock, deps),
  };
}
