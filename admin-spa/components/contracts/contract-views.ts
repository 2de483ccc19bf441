// What a change to contracts or returns makes stale, on this screen and the others that show it
// (계약 현황, DB 현황 and its lead drawer).
import { shopContractsApi } from '@contracts/shop-contracts.ts';
import { leadsApi } from '@contracts/leads.ts';

/** A contract saved, stopped, resumed or deleted. */
export const CONTRACT_VIEWS = [shopContractsApi.list, shopContractsApi.get, shopContractsApi.status, shopContractsApi.leads, shopContractsApi.settlement];

/** A return requested or decided: the lead's validity and the contract's figures move too. */
export const RETURN_VIEWS = [
  shopContractsApi.returns, shopContractsApi.returnable, shopContractsApi.status, shopContractsApi.leads, shopContractsApi.list, shopContractsApi.settlement,
  leadsApi.get, leadsApi.list,
];
