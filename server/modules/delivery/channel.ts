// What a channel sender gets and answers — shared by the worker (server/worker/delivery.ts), the
// '테스트 전송' button and the digests. A sender never touches the database: it sends what it is
// handed and reports what the receiver answered; the worker records the attempt.
import type { DeliveryKind, DeliveredLead, DeliveryField, LeadOrigin, WebhookBody } from '../../../contracts/delivery.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import type { OutboundClient } from '../../lib/outbound.ts';

/** A channel as a sender sees it (its row parsed). */
export interface SendChannel {
  id: number;
  shopId: number;
  shopCode: string;
  shopName: string;
  name: string;
  kind: DeliveryKind;
  fields: DeliveryField[];
  /** The kind's own settings (contracts/delivery-channels.ts describes each kind's). */
  config: Record<string, unknown>;
  secret: string | null;
  /** The previous secret while its grace period lasts (webhook signatures carry both). */
  previousSecret: string | null;
}

/** A lead as the worker loads it for delivery. */
export interface DeliveryLeadRow {
  id: number;
  createdAt: string;
  source: LeadOrigin;
  name: string;
  phone: string;
  landingId: number | null;
  landingCode: string | null;
  landingTitle: string | null;
  /** The A/B experiment's variant the lead came from, if any. */
  variant?: string | null;
  mediumName: string | null;
  answers: Array<{ label: string; value: string }>;
  utm: { source: string | null; medium: string | null; campaign: string | null; content: string | null; term: string | null };
  csStatus: string;
  memo: string | null;
}

export interface SendItem {
  jobId: number;
  /** Stable across the job's attempts. */
  idempotencyKey: string;
  lead: DeliveryLeadRow;
}

export interface SendInput {
  channel: SendChannel;
  /** One (instant) or several (a digest, in one message). */
  items: SendItem[];
  event: WebhookBody['event'];
  /** The job's attempt number (1 for the first). */
  attempt: number;
  now: Date;
  /** When the delivery was made, the same for each of its attempts (the first job's creation); `now` when absent. */
  sentAt?: string;
}

export interface SendResult {
  ok: boolean;
  /** The receiver's status (HTTP status; SMTP reply code), null when none came. */
  status: number | null;
  /** Why it failed, in Korean where we phrase it (a network error's message otherwise). */
  error?: string;
  /** The start of the receiver's answer, for the history (never personal data we sent). */
  excerpt?: string;
  durationMs: number;
  /** The receiver says this endpoint is gone for good (HTTP 410): the channel is turned off. */
  gone?: boolean;
  /** False when retrying cannot help (a 4xx other than 408/429, a refused address). */
  retryable?: boolean;
}

export interface SenderDeps {
  /** SMTP_URL, or undefined: the e-mail channel answers '설정되지 않음'. */
  smtpUrl?: string;
  /** From address for e-mail. */
  mailFrom?: string;
  /** The client webhooks and SMS gateways are reached through (default: nothing inside allowed). */
  outbound?: OutboundClient;
}

export type ChannelSender = (input: SendInput, deps: SenderDeps) => Promise<SendResult>;

/** A lead with only the chosen fields, and where it came from; the phone in full only when `fullPhone`. */
export function deliveredLead(l: DeliveryLeadRow, fields: readonly DeliveryField[], fullPhone: boolean): DeliveredLead {
  const out: DeliveredLead = { source: l.source };
  for (const f of fields) {
    switch (f) {
      case 'id': out.id = l.id; break;
      case 'receivedAt': out.receivedAt = l.createdAt; break;
      case 'name': out.name = l.name; break;
      case 'phone': out.phone = fullPhone ? l.phone : maskPhone(l.phone); break;
      case 'landing': out.landing = { id: l.landingId, code: l.landingCode, title: l.landingTitle, ...(l.variant ? { variant: l.variant } : {}) }; break;
      case 'medium': out.medium = l.mediumName; break;
      case 'answers': out.answers = l.answers; break;
      case 'utm': out.utm = l.utm; break;
      case 'csStatus': out.csStatus = l.csStatus; break;
      case 'memo': out.memo = l.memo; break;
    }
  }
  return out;
}
