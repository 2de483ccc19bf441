import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { shopsRepository, type ShopFields, type ShopView } from './shops.repository.ts';
import { badRequest, conflict, foundOr404 } from '../../lib/errors.ts';
import { uniqueOr409 } from '../../db/write-conflicts.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import { inTransaction, isForeignKeyViolation } from '../../db/dialect-sql.ts';
import type { Shop, ShopDetails, ShopInput } from '../../../contracts/shops.ts';
import type { ShopListQuery } from '../../../contracts/shops.ts';

const CODE_TAKEN = '이미 사용 중인 업체 코드입니다.';

function toShop(r: ShopView, leadCount: number): Shop {
  return {
    id: r.id, shopCode: r.shop_code, name: r.name, clientTypeId: r.client_type_id, clientTypeName: r.client_type_name, status: r.status,
    companyName: r.company_name, representative: r.representative, businessNumber: r.business_number, phone: r.phone,
    address: r.address, privacyOfficerName: r.privacy_officer_name, privacyOfficerContact: r.privacy_officer_contact,
    leadCount, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

function detailColumns(d: ShopDetails) {
  return {
    name: d.name, company_name: d.companyName ?? null, representative: d.representative ?? null, business_number: d.businessNumber ?? null,
    phone: d.phone ?? null, address: d.address ?? null, privacy_officer_name: d.privacyOfficerName ?? null,
    privacy_officer_contact: d.privacyOfficerContact ?? null,
  };
}

function columns(input: ShopInput): ShopFields {
  return { ...detailColumns(input), shop_code: input.shopCode, client_type_id: input.clientTypeId ?? null, status: input.status };
}

/**
 * `pagesChanged`: a shop's name, details or status show on its public pages (the footer, the
 * privacy page, whether the pages answer at all): every process's pages are checked again.
 */
export function shopsService(db: Kysely<Database>, clock: Clock, pagesChanged: () => Promise<void> = async () => {}) {
  const repo = shopsRepository(db);

  const get = async (id: number) => toShop(await foundOr404(repo.find(id), '업체를 찾을 수 없습니다.'), await repo.leadCount(id));

  async function check(input: ShopInput, cur?: Shop) {
    if (input.shopCode !== cur?.shopCode) {
      const same = await repo.findByCode(input.shopCode);
      if (same && same.id !== cur?.id) throw conflict(CODE_TAKEN, { shopCode: CODE_TAKEN });
      // Landing URLs and delivered leads carry the code: it is fixed once the shop has leads.
      if (cur && cur.leadCount > 0) {
        const message = `DB가 접수된 업체(${cur.leadCount}건)의 업체 코드는 변경할 수 없습니다.`;
        throw conflict(message, { shopCode: message });
      }
    }
    const typeId = input.clientTypeId ?? null;
    if (typeId !== null && typeId !== cur?.clientTypeId && !(await repo.activeClientType(typeId))) {
      throw badRequest('사용 중인 업체 유형을 선택하세요.', { clientTypeId: '사용 중인 업체 유형을 선택하세요.' });
    }
  }

  const uniqueCode = <T>(write: () => Promise<T>) => uniqueOr409(write, 'shopCode', CODE_TAKEN);

  return {
    async list(f: ShopListQuery) {
      const { rows, total } = await repo.list(f);
      const counts = await repo.leadCounts(rows.map((r) => r.id));
      return { items: rows.map((r) => toShop(r, counts.get(r.id) ?? 0)), total };
    },
    get,

    async create(input: ShopInput, actor: Actor) {
      await check(input);
      const at = clock();
      const now = at.toISOString();
      const id = await inTransaction(db, async (trx) => {
        const { id } = await uniqueCode(() => shopsRepository(trx).insert({ ...columns(input), created_at: now, updated_at: now }));
        await auditBy(trx, actor, { action: 'shop.create', target: 'shop', targetId: id, detail: input }, at);
        return id;
      });
      return get(id);
    },

    async update(id: number, input: ShopInput, actor: Actor) {
      const cur = await get(id);
      await check(input, cur);
      const at = clock();
      await inTransaction(db, async (trx) => {
        await uniqueCode(() => shopsRepository(trx).update(id, { ...columns(input), updated_at: at.toISOString() }));
        await auditBy(trx, actor, { action: 'shop.update', target: 'shop', targetId: id, detail: input }, at);
      });
      await pagesChanged();
      return get(id);
    },

    /** Only a shop nobody has used yet can be deleted; otherwise it is disabled. */
    async remove(id: number, actor: Actor) {
      const cur = await get(id);
      if (cur.leadCount > 0) throw conflict(`DB가 접수된 업체(${cur.leadCount}건)는 삭제할 수 없습니다. 대신 사용 중지하세요.`);
      const permitted = await repo.permissionCount(id);
      if (permitted > 0) throw conflict(`접근 권한이 부여된 계정(${permitted}개)이 있는 업체는 삭제할 수 없습니다. 권한을 먼저 회수하거나 사용 중지하세요.`);
      try {
        await inTransaction(db, async (trx) => {
          await shopsRepository(trx).remove(id);
          await auditBy(trx, actor, { action: 'shop.delete', target: 'shop', targetId: id, detail: { shopCode: cur.shopCode, name: cur.name } }, clock());
        });
      } catch (err) {
        // Landings, policies and the like of later modules refer to the shop too.
        if (isForeignKeyViolation(err)) throw conflict('이 업체에 연결된 데이터(랜딩 등)가 있어 삭제할 수 없습니다. 대신 사용 중지하세요.');
        throw err;
      }
    },

    /** The shop's own business details (base-information screen). */
    async updateDetails(id: number, details: ShopDetails, actor: Actor) {
      const at = clock();
      await inTransaction(db, async (trx) => {
        await shopsRepository(trx).update(id, { ...detailColumns(details), updated_at: at.toISOString() });
        await auditBy(trx, actor, { action: 'shop.base-information', target: 'shop', targetId: id, detail: details }, at);
      });
      await pagesChanged();
      return get(id);
    },
  };
}
