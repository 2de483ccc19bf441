// The links between resource modules, declared once: a module calls its link; build() in
// app.ts wires each link to the module that answers it. No module reaches another by name.
import type { FastifyInstance } from 'fastify';
import type { LandingView } from '../contracts/landings.ts';
import type { LeadChange, LeadListQuery } from '../contracts/leads.ts';
import type { ContractFigures } from '../contracts/shop-contracts.ts';
import type { AdFigures, AdMediumTotal } from '../contracts/ad-spend.ts';

/** Advertising figures of several shops over a period, as 광고 현황 computes them. */
interface AdTotals {
  /** All the shops together. */
  totals: AdFigures;
  /** One per shop asked for, in the order asked, with its totals per medium (매체 미지정 last). */
  shops: Array<{ shopId: number; totals: AdFigures; media: AdMediumTotal[] }>;
}

/** DB 현황's filters without paging and sort. */
export type LeadFilter = Omit<LeadListQuery, 'page' | 'pageSize' | 'sort'>;
/** Whose leads an account sees: all of a permitted shop's, or only those assigned to it. */
export interface LeadReader {
  id: number;
  scope: 'all' | 'assigned';
}
export interface MatchingLeads {
  total: number;
  /** Empty when total is over the limit asked. */
  leads: Array<{ id: number; duplicateOf: number | null }>;
}

export interface ModuleLinks {
  /** Landings changed in this process: their public pages render anew, intake forgets their definitions. */
  landingsChanged(ids: number[]): Promise<void>;
  /** Something every public page may show changed (the agency's details): pages whose inputs moved render anew. */
  pagesStale(): Promise<void>;
  /** Counted visits still in memory reach the database (before statistics are read). */
  /** Writes the `created` events and delivery jobs of the leads this process's intake committed so far (they follow each batch by a moment). */
  leadFollowUps(): Promise<void>;
  flushVisits(): Promise<void>;
  /** The landing editor's preview of a view. */
  renderPreview(view: LandingView): Promise<string>;
  /** Leads were written (intake's batches, the lead screens): open lists hear it, in every process. */
  leadsChanged(change: LeadChange): void;
  /** Follows one shop's lead changes (the lead stream); returns the way to stop. */
  watchLeads(shopId: number, fn: (change: LeadChange) => void): () => void;
  /** Follows every shop's lead changes (the administrators' dashboard); returns the way to stop. */
  watchAllLeads(fn: (change: LeadChange) => void): () => void;
  /**
   * The leads DB 현황's filter finds in a shop for an account (one whose type sees only the leads
   * assigned to it: only those): how many in all, and — when no more than `max` — each with the
   * lead it duplicates (DB 전송's "every lead the filter finds").
   */
  matchingLeads(shopId: number, filter: LeadFilter, reader: LeadReader, max: number): Promise<MatchingLeads>;
  /** Delivery jobs were queued outside intake (a manual send, a retry): the delivery workers of every process look at once. */
  deliveriesQueued(): void;
  /** 계약 현황's figures (the same computation) of these shops' running contracts and those ended lately (the dashboards). */
  contractProgress(shopIds: number[]): Promise<ContractFigures[]>;
  /** 광고 현황's figures of these shops over Seoul days `from` to `to`, inclusive (the dashboards). */
  adTotals(shopIds: number[], from: string, to: string): Promise<AdTotals>;
  /**
   * Opens (publishes) or closes a landing as the system, with the landings module's own rules and
   * record (no account, the reason): a scheduled 시스템 예약. Its public page renders anew.
   */
  setLandingStatus(target: { shopId: number; landingId: number }, status: 'open' | 'closed', reason: string): Promise<void>;
  /**
   * Stops a landing experiment as the system (no promotion, results archived), audited with the
   * 시스템 예약 that ran it: its experiment-stop. Answers what it did, for the reservation's record.
   */
  stopExperiment(target: { landingId: number; experimentId: number }, reservationId: number, reason: string): Promise<string>;
  /** A text to one of the shop's own staff through the shop's SMS channel `channelId` (counselors' alerts; the delivery module sends it). */
  staffText(channelId: number, o: { to: string; text: string; test: boolean; now: Date }): Promise<{ ok: boolean; error: string | null }>;
}

/** A resource module: registers its routes; calls other modules only through the links. */
export type ResourceModule = (app: FastifyInstance, links: ModuleLinks) => Promise<void>;

