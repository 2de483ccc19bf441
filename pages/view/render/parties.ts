// Who collects a landing's data: the agency (the operator), which provides the leads to the
// shop as recipient — or, where the shop collects for itself, the shop, with the agency as the
// processor it entrusted (위탁), never as if the shop provided the data to itself.
import type { FormField, LandingView, OperatorView } from '../../../contracts/landings.ts';
import { collectedItems, type PrivacyPolicyView, type ThirdParty } from '../../../contracts/privacy.ts';

export interface Party {
  name: string;
  representative: string | null;
  businessNumber: string | null;
  address: string | null;
  phone: string | null;
}

export interface Parties {
  collector: Party;
  /** Third parties the leads are provided to (the shop first, when the agency collects). */
  recipients: ThirdParty[];
  /** The agency, when it processes the leads for a shop that collects for itself. */
  consignee: OperatorView | null;
  officer: { name: string | null; contact: string | null };
}

const shopParty = (s: LandingView['shop']): Party => ({
  name: s.companyName ?? s.name, representative: s.representative, businessNumber: s.businessNumber, address: s.address, phone: s.phone,
});

/** Who collects, who receives, who processes, for a landing's policy. */
export function partiesOf(shop: LandingView['shop'], policy: PrivacyPolicyView, operator: OperatorView | null, fields: readonly FormField[]): Parties {
  const names = [shop.name, shop.companyName].filter((n): n is string => !!n);
  const namesShop = (t: ThirdParty) => names.some((n) => t.recipient.includes(n));
  // Without the agency's details the page can only name the shop (publishing requires them).
  if (policy.collector === 'operator' && operator) {
    const shopRow: ThirdParty = {
      recipient: shop.companyName ?? shop.name, purpose: policy.purpose, items: collectedItems(fields), period: `제공일로부터 ${policy.retentionDays}일`,
    };
    return {
      collector: {
        name: operator.companyName, representative: operator.representative, businessNumber: operator.businessNumber, address: operator.address, phone: operator.phone,
      },
      recipients: policy.thirdParties.some(namesShop) ? policy.thirdParties : [shopRow, ...policy.thirdParties],
      consignee: null,
      officer: { name: policy.officerName ?? operator.privacyOfficerName, contact: policy.officerContact ?? operator.privacyOfficerContact },
    };
  }
  return {
    collector: shopParty(shop),
    recipients: policy.thirdParties.filter((t) => !namesShop(t)),
    consignee: operator,
    officer: { name: policy.officerName ?? shop.privacyOfficerName, contact: policy.officerContact ?? shop.privacyOfficerContact },
  };
}
