// The lead list's filters as DB 현황 offers them (search, status, counselor, landing, and behind
// 상세 조건 medium, UTM, duplicates, validity), for every screen that lists a shop's leads by
// them; and the filter the URL holds, as a body that acts on "every lead the list shows".
import { useSearchParams } from 'react-router-dom';
import { CS_STATUSES, leadsApi } from '@contracts/leads.ts';
import { landingsApi } from '@contracts/landings.ts';
import { useCall } from '@/lib/use-call.ts';
import { useCodeOptions } from '@/lib/options.ts';
import type { FilterDef } from './resource-table.tsx';

/** The list's filter names (beside the period's from and to). */
const LEAD_FILTER_NAMES = ['q', 'status', 'assignee', 'landingId', 'mediaTypeId', 'utmSource', 'utmCampaign', 'duplicate', 'validity'] as const;

export function useLeadFilters(shopId: number, o: { counselors?: boolean } = {}): FilterDef[] {
  const params = { shopId };
  const withCounselors = o.counselors ?? true;
  const landings = useCall(landingsApi.options, { params });
  const media = useCodeOptions('media-type');
  const counselors = useCall(leadsApi.counselors, { params }, { enabled: withCounselors });
  return [
    { name: 'q', label: '이름 또는 전화번호', type: 'search', width: 200 },
    { name: 'status', label: '상태', type: 'multi', options: CS_STATUSES.map((s) => ({ value: s, label: s })) },
    ...(withCounselors
      ? [{
          name: 'assignee', label: '담당', type: 'select' as const,
          options: [{ value: 'none', label: '미배분' }, ...(counselors.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name }))],
        }]
      : []),
    { name: 'landingId', label: '랜딩', type: 'select', width: 180, options: (landings.data?.items ?? []).map((l) => ({ value: String(l.id), label: l.title })) },
    { name: 'mediaTypeId', advanced: true, label: '매체', type: 'select', options: media.options.map((m) => ({ value: String(m.value), label: m.label })) },
    { name: 'utmSource', advanced: true, label: 'utm_source', type: 'search', width: 140 },
    { name: 'utmCampaign', advanced: true, label: 'utm_campaign', type: 'search', width: 150 },
    { name: 'duplicate', advanced: true, label: '중복', type: 'select', options: [{ value: 'unique', label: '중복 아님' }, { value: 'duplicate', label: '중복만' }] },
    { name: 'validity', advanced: true, label: '유효성', type: 'select', options: [{ value: 'valid', label: '유효' }, { value: 'invalid', label: '무효·반품' }] },
  ];
}

/** The list's period and filters as `search` holds them (query-string forms, as the list endpoint reads them). */
export function leadFilterValues(search: URLSearchParams, from: string, to: string): Record<string, string> {
  const out: Record<string, string> = { from, to };
  for (const name of LEAD_FILTER_NAMES) {
    const v = search.get(name);
    if (v) out[name] = v;
  }
  return out;
}

/** The list's period and filters as the URL holds them. */
export function useLeadFilterValues(from: string, to: string): Record<string, string> {
  const [search] = useSearchParams();
  return leadFilterValues(search, from, to);
}
