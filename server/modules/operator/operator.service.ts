import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { operatorRepository, type OperatorRow } from './operator.repository.ts';
import { forbidden } from '../../lib/errors.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Operator, OperatorInput } from '../../../contracts/operator.ts';

const toOperator = (r: OperatorRow): Operator => ({
  companyName: r.company_name, representative: r.representative, businessNumber: r.business_number, phone: r.phone,
  address: r.address, privacyOfficerName: r.privacy_officer_name, privacyOfficerContact: r.privacy_officer_contact, updatedAt: r.updated_at,
});

/**
 * The agency's own details, named as collector on privacy pages: any administrator reads
 * them, only a 최고관리자 changes them. Pages that name the agency render anew.
 */
export function operatorService(db: Kysely<Database>, clock: Clock, pagesChanged: () => Promise<void>) {
  const repo = operatorRepository(db);
  return {
    async get(actor: Actor) {
      const row = await repo.find();
      return { operator: row ? toOperator(row) : null, editable: actor.superadmin };
    },
    async save(input: OperatorInput, actor: Actor) {
      if (!actor.superadmin) throw forbidden('운영사 정보는 최고관리자만 바꿀 수 있습니다.');
      const now = clock();
      await db.transaction().execute(async (trx) => {
        const before = await operatorRepository(trx).find();
        await operatorRepository(trx).save({
          company_name: input.companyName, representative: input.representative, business_number: input.businessNumber ?? null,
          phone: input.phone ?? null, address: input.address, privacy_officer_name: input.privacyOfficerName,
          privacy_officer_contact: input.privacyOfficerContact, updated_by: actor.id, updated_at: now.toISOString(),
        });
        await auditBy(trx, actor, { action: 'operator.update', target: 'operator', targetId: 1, detail: { before: before ? toOperator(before) : null, after: input } }, now);
      });
      await pagesChanged();
      return this.get(actor);
    },
  };
}
