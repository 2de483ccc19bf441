// The links between resource modules, declared once: a module calls its link; build() in
// app.ts wires each link to the module that answers it. No module reaches another by name.
import type { FastifyInstance } from 'fastify';
import type { LandingView } from '../contracts/landings.ts';
import type { LeadChange } from '../contracts/leads.ts';

export interface ModuleLinks {
  /** Landings changed in this process: their public pages render anew, intake forgets their definitions. */
  landingsChanged(ids: number[]): Promise<void>;
  /** Something every public page may show changed (the agency's details): pages whose inputs moved render anew. */
  pagesStale(): Promise<void>;
  /** Counted visits still in memory reach the database (before statistics are read). */
  flushVisits(): Promise<void>;
  /** The landing editor's preview of a view. */
  renderPreview(view: LandingView): Promise<string>;
  /** Leads were written (intake's batches, the lead screens): open lists hear it, in every process. */
  leadsChanged(change: LeadChange): void;
  /** Follows one shop's lead changes (the lead stream); returns the way to stop. */
  watchLeads(shopId: number, fn: (change: LeadChange) => void): () => void;
  /** Follows every shop's lead changes (the administrators' dashboard); returns the way to stop. */
  watchAllLeads(fn: (change: LeadChange) => void): () => void;
}

/** A resource module: registers its routes; calls other modules only through the links. */
export type ResourceModule = (app: FastifyInstance, links: ModuleLinks) => Promise<void>;

