import type { Kysely } from 'kysely';
import type { AccountTypeRow, Database } from '../../db/schema.ts';
import { accountTypesRepository } from './account-types.repository.ts';
import { badRequest, conflict, foundOr404 } from '../../lib/errors.ts';
import { uniqueOr409 } from '../../db/write-conflicts.ts';
import { bool, itemsOf } from '../../db/paging.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import {
  BUILTIN_ACCOUNT_TYPES, beyondSide, matrixForSide, normaliseMatrix, type PermissionMatrix,
} from '../../../contracts/permissions.ts';
import type { Side } from '../../../contracts/screens.ts';
import {
  agencyOnlyRefusal, matrixForArea, type AccountType, type AccountTypeInput, type AccountTypeListQuery, type PermissionUpdate,
} from '../../../contracts/account-types.ts';

const SUPERADMIN = 'superadmin';
const NAME_TAKEN = '이미 사용 중인 이름입니다.';
const BUILTIN_SIDE = '기본 제공 유형의 구분(대행사·고객사)은 바꿀 수 없습니다.';
const CLIENT_IN_ADMIN_AREA = '고객사 쪽 기본 유형은 관리자 영역으로 옮길 수 없습니다. 관리자 영역은 모든 업체에 들어갑니다.';

/**
 * The side a type saved with `input` takes: a built-in type keeps its own; an administrator-area
 * type spans every shop, so it is the agency's; otherwise the one chosen, or the client's.
 */
function sideOf(input: AccountTypeInput, builtinKey: string | null): Side {
  const builtin = BUILTIN_ACCOUNT_TYPES.find((b) => b.key === builtinKey);
  if (builtin) {
    if (input.side && input.side !== builtin.side) throw conflict(BUILTIN_SIDE, { side: BUILTIN_SIDE });
    if (input.area === 'admin' && builtin.side === 'client') throw conflict(CLIENT_IN_ADMIN_AREA, { area: CLIENT_IN_ADMIN_AREA });
    return builtin.side;
  }
  return input.area === 'admin' ? 'agency' : (input.side ?? 'client');
}

function toAccountType(r: AccountTypeRow & { usage: number | string }): AccountType {
  return {
    id: r.id, name: r.name, area: r.area, side: r.side, dataScope: r.data_scope, canUnmask: bool(r.can_unmask), canExport: bool(r.can_export),
    permissions: normaliseMatrix(JSON.parse(r.permissions) as PermissionMatrix), builtinKey: r.builtin_key,
    sortOrder: r.sort_order, active: bool(r.active), usage: Number(r.usage), createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export function accountTypesService(db: Kysely<Database>, clock: Clock) {
  const repo = accountTypesRepository(db);

  const get = async (id: number) => toAccountType(await foundOr404(repo.find(id), '계정 유형을 찾을 수 없습니다.'));

  async function assertUniqueName(name: string, selfId?: number) {
    const same = await repo.findByName(name);
    if (same && same.id !== selfId) throw conflict(NAME_TAKEN, { name: NAME_TAKEN });
  }

  const guarded = <T>(write: () => Promise<T>) => uniqueOr409(write, 'name', NAME_TAKEN);

  return {
    list: async (f: AccountTypeListQuery) => itemsOf(await repo.list(f), toAccountType),
    get,
    all: async () => ({ items: (await repo.all()).map(toAccountType) }),
    options: async () => ({ items: (await repo.options()).map((r) => ({ id: r.id, name: r.name, area: r.area, side: r.side, active: bool(r.active) })) }),

    async create(input: AccountTypeInput, actor: Actor) {
      await assertUniqueName(input.name);
      const side = sideOf(input, null);
      const at = clock();
      const now = at.toISOString();
      const id = await inTransaction(db, async (trx) => {
        const { id } = await guarded(() =>
          accountTypesRepository(trx).insert({
            name: input.name, area: input.area, side, data_scope: input.dataScope, permissions: JSON.stringify(normaliseMatrix({})),
            can_unmask: 0, can_export: 0, builtin_key: null, sort_order: input.sortOrder, active: input.active ? 1 : 0,
            created_at: now, updated_at: now,
          }),
        );
        await auditBy(trx, actor, { action: 'account-type.create', target: 'account-type', targetId: id, detail: { ...input, side } }, at);
        return id;
      });
      return get(id);
    },

    async update(id: number, input: AccountTypeInput, actor: Actor) {
      const cur = await get(id);
      if (cur.builtinKey === SUPERADMIN) {
        const fields: Record<string, string> = {};
        if (input.area !== cur.area) fields.area = '최고관리자 유형의 영역은 변경할 수 없습니다.';
        if (input.dataScope !== cur.dataScope) fields.dataScope = '최고관리자 유형의 데이터 범위는 변경할 수 없습니다.';
        if (!input.active) fields.active = '최고관리자 유형은 사용 중지할 수 없습니다.';
        if (Object.keys(fields).length) throw conflict(Object.values(fields)[0]!, fields);
      }
      if (!input.active && cur.active && id === actor.accountTypeId) {
        throw conflict('자신의 계정 유형은 사용 중지할 수 없습니다.', { active: '자신의 계정 유형은 사용 중지할 수 없습니다.' });
      }
      await assertUniqueName(input.name, id);
      const side = sideOf(input, cur.builtinKey);
      const at = clock();
      await inTransaction(db, async (trx) => {
        await guarded(() =>
          accountTypesRepository(trx).update(id, {
            name: input.name, area: input.area, side, data_scope: input.dataScope, sort_order: input.sortOrder, active: input.active ? 1 : 0,
            // Moving to the shop area drops administrator screens from the matrix; moving to the client's side, the agency's.
            ...(input.area !== cur.area || side !== cur.side
              ? { permissions: JSON.stringify(matrixForSide(side, matrixForArea(input.area, cur.permissions))) }
              : {}),
            updated_at: at.toISOString(),
          }),
        );
        await auditBy(trx, actor, { action: 'account-type.update', target: 'account-type', targetId: id, detail: { ...input, side } }, at);
      });
      return get(id);
    },

    async remove(id: number, actor: Actor) {
      const cur = await get(id);
      if (cur.builtinKey) throw conflict('기본 제공 계정 유형은 삭제할 수 없습니다. 대신 사용 중지하세요.');
      if (cur.usage > 0) throw conflict(`사용 중인 계정 유형은 삭제할 수 없습니다 (계정 ${cur.usage}개). 계정의 유형을 먼저 바꾸세요.`);
      await inTransaction(db, async (trx) => {
        await accountTypesRepository(trx).remove(id);
        await auditBy(trx, actor, { action: 'account-type.delete', target: 'account-type', targetId: id, detail: { name: cur.name } }, clock());
      });
    },

    /** Saves one type's row of the permission matrix. */
    async updatePermissions(id: number, input: PermissionUpdate, actor: Actor) {
      const cur = await get(id);
      if (cur.builtinKey === SUPERADMIN) throw conflict('최고관리자 유형의 권한은 변경할 수 없습니다.');
      const permissions = matrixForArea(cur.area, input.permissions);
      // Not trimmed quietly like the administrator screens: the administrator asked for it and is told why not.
      const beyond = beyondSide(cur.side, permissions);
      if (beyond.length) throw badRequest(agencyOnlyRefusal(beyond), { permissions: agencyOnlyRefusal(beyond) });
      const at = clock();
      const changed = Object.fromEntries(
        Object.entries(permissions).filter(([k, v]) => cur.permissions[k] !== v).map(([k, v]) => [k, `${cur.permissions[k]}→${v}`]),
      );
      await inTransaction(db, async (trx) => {
        await accountTypesRepository(trx).update(id, {
          permissions: JSON.stringify(permissions), can_unmask: input.canUnmask ? 1 : 0, can_export: input.canExport ? 1 : 0,
          updated_at: at.toISOString(),
        });
        await auditBy(trx, actor, {
          action: 'permission.update', target: 'account-type', targetId: id,
          detail: { changed, canUnmask: input.canUnmask, canExport: input.canExport },
        }, at);
      });
      return get(id);
    },
  };
}
