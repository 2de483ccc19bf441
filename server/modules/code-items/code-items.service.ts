import type { Kysely } from 'kysely';
import type { Database, CodeItemRow } from '../../db/schema.ts';
import { codeItemsRepository } from './code-items.repository.ts';
import { conflict, foundOr404 } from '../../lib/errors.ts';
import { isUniqueViolation } from '../../db/dialect-sql.ts';
import { bool, itemsOf } from '../../db/paging.ts';
import type { Clock } from '../../lib/clock.ts';
import type { CodeItem, CodeItemInput, CodeKind } from '../../../contracts/code-items.ts';
import type { CodeItemListQuery } from '../../../contracts/code-items.ts';

function toCodeItem(r: CodeItemRow & { usage: number | string }): CodeItem {
  return {
    id: r.id, kind: r.kind, name: r.name, code: r.code, sortOrder: r.sort_order, active: bool(r.active),
    usage: Number(r.usage), createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export function codeItemsService(db: Kysely<Database>, clock: Clock) {
  const repo = codeItemsRepository(db);

  async function assertUnique(kind: CodeKind, input: CodeItemInput, selfId?: number) {
    const fields: Record<string, string> = {};
    const byCode = await repo.findByField(kind, 'code', input.code);
    if (byCode && byCode.id !== selfId) fields.code = '이미 사용 중인 코드입니다.';
    const byName = await repo.findByField(kind, 'name', input.name);
    if (byName && byName.id !== selfId) fields.name = '이미 사용 중인 이름입니다.';
    if (Object.keys(fields).length) throw conflict(Object.values(fields)[0]!, fields);
  }

  const get = async (kind: CodeKind, id: number) => toCodeItem(await foundOr404(repo.find(kind, id), '코드를 찾을 수 없습니다.'));

  return {
    list: async (kind: CodeKind, f: CodeItemListQuery) => itemsOf(await repo.list(kind, f), toCodeItem),
    get,
    async create(kind: CodeKind, input: CodeItemInput) {
      await assertUnique(kind, input);
      const now = clock().toISOString();
      try {
        const { id } = await repo.insert({
          kind, name: input.name, code: input.code, sort_order: input.sortOrder, active: input.active ? 1 : 0, created_at: now, updated_at: now,
        });
        return get(kind, id);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('이미 사용 중인 코드 또는 이름입니다.', { code: '이미 사용 중인 코드입니다.' });
        throw err;
      }
    },
    async update(kind: CodeKind, id: number, input: CodeItemInput) {
      await get(kind, id);
      await assertUnique(kind, input, id);
      await repo.update(id, { name: input.name, code: input.code, sort_order: input.sortOrder, active: input.active ? 1 : 0, updated_at: clock().toISOString() });
      return get(kind, id);
    },
    async remove(kind: CodeKind, id: number) {
      const item = await get(kind, id);
      if (item.usage > 0) throw conflict(`사용 중인 코드는 삭제할 수 없습니다 (${item.usage}건에서 사용). 대신 비활성화하세요.`);
      await repo.remove(id);
    },
    reorder: (kind: CodeKind, ids: number[]) => repo.reorder(kind, ids, clock().toISOString()),
    options: (kind: CodeKind) => repo.options(kind),
  };
}
