// What the rest of the server may use of the leads module (the dependency rules hold every other
// module, and server/worker/, to this file). Every write of a lead or its access record stays
// inside the module; these are the ways in.

// Accepting leads (accept.ts): intake, manual entry and import, in their own transaction.
export { insertAccepted, type AcceptedLead, type CreatedLead } from './accept.ts';
// Intake's leads' `created` events and delivery jobs, just after their batches commit (follow-up.ts).
export { followUpLeads } from './follow-up.ts';
export type { NewLead } from './leads.repository.ts';
// Contract caps (contract-caps.ts): intake's gate, the review after a contract changed, the reopening at midnight.
export { contractCapGate, reopenDue, reviewContractCaps, type CapChanges, type CapGate } from './contract-caps.ts';
// The pull feed's order (lead-feed-seq.ts): numbered as written, or by one serial step after the commit.
export { assignFeedSeq } from './lead-feed-seq.ts';
// The lead screens' service (the shop dashboard's list) and the leads a list filter finds (exports, DB 전송).
export { filteredLeads, leadsService, matchingLeads, type LeadExportRow } from './leads.service.ts';
// Writes other modules make with their own transaction: returns, the delivery worker's events.
export { markReturned, recordLeadEvent, recordLeadEvents } from './lead-events.ts';
// The automatic purge (deletion.ts), run by the worker.
export { purgeDue, type PurgeRun } from './deletion.ts';
// Speed to lead (sla.ts): escalation of leads past their SLA, run by the worker.
export { escalateDue, type SlaStep } from './sla.ts';
// Speed to lead, measured (sla-figures.ts): 업체 대시보드, 상담 통계 and the administrators' dashboard.
export { slaFigures, slaRanking } from './sla-figures.ts';
