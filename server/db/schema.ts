// The typed Database interface: one entry per table. Timestamps are ISO-8601 UTC
// strings; booleans are 0/1 integers; JSON is text — the same on SQLite and PostgreSQL.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Id = Generated<number>;

interface AccountTypesTable {
  id: Id;
  name: string;
  area: 'admin' | 'shop';
  /** agency | client (2026-12-01-agency-side). */
  side: 'agency' | 'client';
  data_scope: 'all' | 'assigned';
  permissions: string;
  can_unmask: number;
  can_export: number;
  builtin_key: string | null;
  sort_order: number;
  active: number;
  created_at: string;
  updated_at: string;
}

interface AccountsTable {
  id: Id;
  login_id: string;
  name: string;
  phone: string | null;
  email: string | null;
  account_type_id: number;
  status: 'active' | 'locked' | 'disabled';
  password_hash: string;
  failed_logins: number;
  locked_until: string | null;
  last_login_at: string | null;
  last_login_ip: string | null;
  password_changed_at: string | null;
  /** 1: the account must choose a new password before using the back office. */
  must_change_password: ColumnType<number, number | undefined, number>;
  created_at: string;
  updated_at: string;
}

interface SessionsTable {
  id: string; // sha256 of the cookie token
  account_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

interface CodeItemsTable {
  id: Id;
  kind: 'client-type' | 'media-type' | 'event-type';
  name: string;
  code: string;
  sort_order: number;
  active: number;
  created_at: string;
  updated_at: string;
}

interface ShopsTable {
  id: Id;
  shop_code: string;
  name: string;
  client_type_id: number | null;
  status: 'active' | 'disabled';
  company_name: string | null;
  representative: string | null;
  business_number: string | null;
  phone: string | null;
  address: string | null;
  privacy_officer_name: string | null;
  privacy_officer_contact: string | null;
  created_at: string;
  updated_at: string;
}

interface ShopPermissionsTable {
  account_id: number;
  shop_id: number;
  created_at: string;
}

interface DenyRulesTable {
  id: Id;
  kind: 'ip' | 'cidr' | 'phone' | 'keyword';
  value: string;
  scope: 'intake' | 'backoffice-login';
  reason: string | null;
  expires_at: string | null;
  hits: ColumnType<number, number | undefined, number>;
  last_hit_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Administrative changes (who changed which setting), separate from the lead access record. */
export interface AuditEventsTable {
  id: Id;
  account_id: number | null;
  action: string;
  target: string;
  target_id: string | null;
  detail: string | null;
  ip: string | null;
  at: string;
}

// Landings and intake (2026-11-21-landings).
export interface LandingsTable {
  id: Id;
  shop_id: number;
  landing_code: string;
  title: string;
  status: 'draft' | 'open' | 'closed';
  open_at: string | null;
  close_at: string | null;
  media_type_id: number | null;
  event_type_id: number | null;
  content: string;
  form_fields: string;
  privacy_consent_text: string;
  marketing_consent_text: string | null;
  thank_you_message: string;
  thank_you_url: string | null;
  duplicate_window_days: number;
  /** JSON TrackingTag[] (contracts/tracking-tags.ts). */
  tracking_tags: ColumnType<string, string | undefined, string>;
  head_script: ColumnType<string, string | undefined, string>;
  body_script: ColumnType<string, string | undefined, string>;
  conversion_script: ColumnType<string, string | undefined, string>;
  privacy_policy_version_id: number | null;
  published_at: string | null;
  version: ColumnType<number, number | undefined, number>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** The contract whose cap closed the landing (status closed), if a cap did. */
  closed_by_contract_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** When a landing a daily cap closed opens again by itself (the next Seoul midnight). */
  reopen_at: ColumnType<string | null, string | null | undefined, string | null>;
}

interface PrivacyPoliciesTable {
  id: Id;
  shop_id: number;
  version: number;
  collector: ColumnType<'operator' | 'shop', 'operator' | 'shop' | undefined, 'operator' | 'shop'>;
  purpose: string;
  items: string;
  retention_days: number;
  third_parties: string;
  officer_name: string | null;
  officer_contact: string | null;
  body: string;
  published_at: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface LeadsTable {
  id: Id;
  shop_id: number;
  landing_id: number | null;
  source: ColumnType<string, string | undefined, string>;
  name: string;
  phone: string;
  answers: string;
  privacy_consent: number;
  marketing_consent: number;
  /** 1: the visitor gave the separate consent the landing's sensitive fields require. */
  sensitive_consent: number;
  privacy_policy_id: number | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_content: string | null;
  utm_term: string | null;
  media_type_id: number | null;
  referrer: string | null;
  ip: string | null;
  user_agent: string | null;
  cs_status: string;
  assignee_id: number | null;
  reserved_at: string | null;
  memo: string | null;
  duplicate_of: number | null;
  validity: ColumnType<string, string | undefined, string>;
  invalid_reason: string | null;
  deleted_at: string | null;
  purged_at: string | null;
  deleted_by: number | null;
  delete_reason: string | null;
  created_at: string;
  updated_at: string;
  /** The phone's last four digits: what callers search by (indexed with the shop). */
  phone_last4: string | null;
  /** The first status change away from 미처리 (time to first contact). */
  first_contact_at: string | null;
  assigned_at: string | null;
  /** Entered by hand or imported: the basis of processing (contracts/data-insertion.ts CONSENT_BASES); null for form leads. */
  consent_basis: ColumnType<string | null, string | null | undefined, string | null>;
  consent_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** The import (lead_imports) the lead came from. */
  import_id: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * The pull feed's order: given in the transaction that writes the lead (lead_feed_counter), or
   * after it committed for leads left waiting (an import's, a restored one); null until then.
   */
  feed_seq: ColumnType<number | null, number | null | undefined, number | null>;
  /** The landing experiment and variant (A, B …) the visitor's form carried; null outside experiments. */
  experiment_id: ColumnType<number | null, number | null | undefined, number | null>;
  variant: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The PIPA access record: who did what to which lead, from where. */
export interface LeadEventsTable {
  id: Id;
  lead_id: number;
  shop_id: number | null;
  account_id: number | null;
  action: string;
  before: string | null;
  after: string | null;
  ip: string | null;
  at: string;
}

interface BlockedSubmissionsTable {
  id: Id;
  shop_id: number | null;
  landing_id: number | null;
  reason: 'deny-rule' | 'honeypot' | 'too-fast';
  deny_rule_id: number | null;
  ip: string | null;
  phone: string | null;
  name: string | null;
  user_agent: string | null;
  detail: string | null;
  at: string;
}

interface VisitsTable {
  landing_id: number;
  day: string;
  source: string;
  count: number;
}

/** An experiment of a landing (A/B variants): draft → running → stopped. */
export interface LandingExperimentsTable {
  id: Id;
  landing_id: number;
  name: string;
  status: 'draft' | 'running' | 'stopped';
  started_at: string | null;
  stopped_at: string | null;
  /** A scheduled stop. */
  stop_at: string | null;
  /** The variant promoted at the stop. */
  winner: string | null;
  /** JSON ExperimentResults archived at the stop (contracts/experiments.ts). */
  results: string | null;
  created_by: number | null;
  stopped_by: number | null;
  created_at: string;
  updated_at: string;
}

/** A variant: A is the control (the landing's own content, `content` null); B … hold a whole landing content. */
export interface LandingExperimentVariantsTable {
  id: Id;
  experiment_id: number;
  key: string;
  weight: number;
  content: string | null;
  created_at: string;
  updated_at: string;
}

/** Visits of an experiment's variants per Seoul day (beside the landing's visits row). */
interface VisitVariantsTable {
  experiment_id: number;
  variant: string;
  day: string;
  count: number;
}

interface UploadsTable {
  id: Id;
  key: string;
  shop_id: number;
  mime: string;
  width: number;
  height: number;
  size: number;
  data: Buffer;
  created_by: number | null;
  created_at: string;
  /** When its AVIF/WebP copies were made (or found impossible); null until then. */
  variants_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An upload's copy in a modern format and one width (upload_variants). */
export interface UploadVariantsTable {
  id: Id;
  upload_id: number;
  format: 'avif' | 'webp';
  width: number;
  height: number;
  size: number;
  data: Buffer;
  created_at: string;
}

/** The agency's own details: one row (id 1). */
export interface OperatorSettingsTable {
  id: number;
  company_name: string;
  representative: string;
  business_number: string | null;
  phone: string | null;
  address: string;
  privacy_officer_name: string;
  privacy_officer_contact: string;
  updated_by: number | null;
  updated_at: string;
}

/** Per shop: when 미처리 is overdue, and the automatic allocation rule with its round-robin cursor. */
/** The pull feed's last number given (one row, id 1): a writer's update holds it until its commit. */
interface LeadFeedCounterTable {
  id: number;
  seq: number;
}

/** How far in the pull feed's order intake's leads have their follow-ups (created event, delivery jobs): one row. */
interface LeadFollowUpTable {
  id: number;
  seq: number;
}

export interface LeadSettingsTable {
  shop_id: number;
  overdue_minutes: ColumnType<number, number | undefined, number>;
  auto_mode: ColumnType<'off' | 'round-robin' | 'weighted', 'off' | 'round-robin' | 'weighted' | undefined, 'off' | 'round-robin' | 'weighted'>;
  rr_cursor: ColumnType<number, number | undefined, number>;
  /** Days a deleted lead waits before the automatic purge destroys it. */
  purge_grace_days: ColumnType<number, number | undefined, number>;
  updated_by: number | null;
  updated_at: string;
}

/** Per counselor in a shop: how allocation treats them. */
interface CounselorSettingsTable {
  shop_id: number;
  account_id: number;
  weight: ColumnType<number, number | undefined, number>;
  daily_cap: number | null;
  max_open: number | null;
  available: ColumnType<number, number | undefined, number>;
  updated_at: string;
}

/** Per shop: the speed-to-lead promise and its escalation (2026-12-08-speed-to-lead). */
export interface LeadSlaSettingsTable {
  shop_id: number;
  enabled: number;
  /** When it was last turned on: leads that arrived earlier are not escalated. */
  enabled_at: string | null;
  /** Working minutes to the first contact. */
  minutes: number;
  /** Percent of `minutes` at which the holder is reminded; null: no reminder. */
  remind_percent: number | null;
  on_deadline: 'reroute' | 'notify' | 'both';
  max_reroutes: number;
  /** JSON number[]: ISO weekdays. */
  work_days: string;
  /** HH:mm Seoul. */
  work_start: string;
  work_end: string;
  /** JSON string[]: Seoul days. */
  holidays: string;
  updated_by: number | null;
  updated_at: string;
}

/** Per lead the escalation touched: its current holder's clock and what was done. */
export interface LeadSlaStateTable {
  lead_id: number;
  shop_id: number;
  clock_from: string;
  reminded_at: string | null;
  reroutes: number;
  /** JSON number[]. */
  lapsed_by: string;
  stage: 'running' | 'notified' | 'manager';
  last_action: string;
  /** Every write names the version it read and adds one: a step taken twice finds it moved on. */
  version: ColumnType<number, number | undefined, number>;
  updated_at: string;
}

/** An account's own alert channels and quiet hours (2026-12-09-counselor-alerts). */
export interface AlertPreferencesTable {
  account_id: number;
  enabled: number;
  browser: number;
  push: number;
  sms: number;
  /** HH:mm Seoul; null: no quiet hours. */
  quiet_start: string | null;
  quiet_end: string | null;
  updated_at: string;
}

/** A browser's Web Push subscription of an account. */
export interface PushSubscriptionsTable {
  id: Id;
  account_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: string;
  last_ok_at: string | null;
  last_failed_at: string | null;
  failures: ColumnType<number, number | undefined, number>;
}

/** One alert to one account on one channel: claimed by its unique key, then sent, skipped or failed. */
export interface AlertSendsTable {
  id: Id;
  key: string;
  account_id: number;
  shop_id: number | null;
  lead_id: number | null;
  reason: string;
  channel: 'push' | 'sms';
  status: 'sending' | 'sent' | 'failed' | 'quiet' | 'off';
  delivered: ColumnType<number, number | undefined, number>;
  attempted: ColumnType<number, number | undefined, number>;
  error: string | null;
  at: string;
}

/** List-level access to personal data: exports, searches, imports, reading the access record. */
export interface AccessEventsTable {
  id: Id;
  shop_id: number | null;
  account_id: number | null;
  action: string;
  row_count: number | null;
  /** JSON; never a phone or a name in clear. */
  detail: string | null;
  ip: string | null;
  at: string;
}

/** A destruction of leads, by hand or by the automatic purge; nothing personal in it. */
export interface DestructionsTable {
  id: Id;
  shop_id: number;
  trigger: 'manual' | 'grace' | 'retention';
  account_id: number | null;
  reason: string | null;
  lead_count: number;
  /** JSON array of lead ids. */
  lead_ids: string;
  at: string;
}

export interface LeadImportsTable {
  id: Id;
  shop_id: number;
  account_id: number;
  file_name: string;
  file_size: number;
  status: 'uploaded' | 'importing' | 'done' | 'failed' | 'cancelled';
  /** JSON: column index → field. */
  mapping: string | null;
  consent_basis: string | null;
  total_rows: number | null;
  processed_rows: ColumnType<number, number | undefined, number>;
  imported: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  format: 'csv' | 'xlsx' | null;
  /** CSV text encoding: utf-8, cp949, utf-16le or utf-16be. */
  encoding: string | null;
  /** JSON string[]: the header row. */
  headers: string | null;
  duplicates: ColumnType<number, number | undefined, number>;
  started_at: string | null;
}

export interface AccessReviewsTable {
  id: Id;
  shop_id: number;
  /** YYYY-MM */
  month: string;
  reviewed_by: number;
  note: string | null;
  reviewed_at: string;
}

export interface ShopContractsTable {
  id: Id;
  shop_id: number;
  name: string;
  /** Seoul days, both included. */
  starts_on: string;
  ends_on: string;
  quantity: number;
  /** KRW per valid lead, VAT excluded. */
  unit_price: number;
  daily_cap: number | null;
  return_window_days: ColumnType<number, number | undefined, number>;
  /** Percent. */
  max_return_rate: ColumnType<number, number | undefined, number>;
  auto_close: ColumnType<number, number | undefined, number>;
  stopped_at: string | null;
  memo: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

interface ShopContractLandingsTable {
  contract_id: number;
  landing_id: number;
}

interface ShopContractMediaTable {
  contract_id: number;
  media_type_id: number;
}

export interface LeadReturnsTable {
  id: Id;
  contract_id: number;
  shop_id: number;
  lead_id: number;
  reason: string;
  note: string | null;
  status: ColumnType<'requested' | 'approved' | 'rejected', 'requested' | 'approved' | 'rejected' | undefined, 'requested' | 'approved' | 'rejected'>;
  requested_by: number | null;
  requested_at: string;
  decided_by: number | null;
  decided_at: string | null;
  decision_note: string | null;
}

export interface ContractCapEventsTable {
  id: Id;
  contract_id: number;
  shop_id: number;
  landing_id: number;
  kind: 'closed-daily' | 'closed-quantity' | 'reopened';
  count: number | null;
  account_id: number | null;
  at: string;
}

interface AdSpendTable {
  id: Id;
  shop_id: number;
  /** Seoul day. */
  day: string;
  media_type_id: number;
  /** 0: the medium as a whole. */
  landing_id: ColumnType<number, number | undefined, number>;
  impressions: number;
  clicks: number;
  spend: number;
  source: ColumnType<string, string | undefined, string>;
  updated_by: number | null;
  updated_at: string;
}

interface CpaTargetsTable {
  shop_id: number;
  media_type_id: number;
  /** YYYY-MM */
  month: string;
  target_cpa: number;
  updated_by: number | null;
  updated_at: string;
}

type DeliveryKind = 'webhook' | 'email' | 'sms';
export type DeliveryJobStatus = 'pending' | 'sending' | 'succeeded' | 'failed' | 'cancelled';

export interface DeliveryChannelsTable {
  id: Id;
  shop_id: number;
  name: string;
  kind: DeliveryKind;
  enabled: ColumnType<number, number | undefined, number>;
  mode: ColumnType<'instant' | 'digest', 'instant' | 'digest' | undefined, 'instant' | 'digest'>;
  /** HH:mm Seoul, digest mode. */
  digest_at: string | null;
  /** JSON string[] (empty: all). */
  statuses: ColumnType<string, string | undefined, string>;
  /** JSON number[] (empty: all). */
  landing_ids: ColumnType<string, string | undefined, string>;
  /** JSON string[]: the lead fields sent. */
  fields: ColumnType<string, string | undefined, string>;
  include_duplicates: ColumnType<number, number | undefined, number>;
  /** JSON: the kind's own settings. */
  config: ColumnType<string, string | undefined, string>;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_until: string | null;
  disabled_reason: string | null;
  disabled_at: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryJobsTable {
  id: Id;
  shop_id: number;
  channel_id: number;
  lead_id: number;
  status: ColumnType<DeliveryJobStatus, DeliveryJobStatus | undefined, DeliveryJobStatus>;
  trigger: ColumnType<'intake' | 'manual' | 'test', 'intake' | 'manual' | 'test' | undefined, 'intake' | 'manual' | 'test'>;
  reason: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  lease_until: string | null;
  claimed_by: string | null;
  idempotency_key: string;
  last_error: string | null;
  response_code: number | null;
  delivered_at: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttemptsTable {
  id: Id;
  job_id: number;
  shop_id: number;
  channel_id: number;
  lead_id: number;
  attempt: number;
  status: 'succeeded' | 'failed';
  response_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  duration_ms: number;
  worker: string | null;
  at: string;
}

export interface ApiKeysTable {
  id: Id;
  shop_id: number;
  name: string;
  prefix: string;
  key_hash: string;
  full_phone: ColumnType<number, number | undefined, number>;
  created_by: number | null;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
}

type ReservationKind = 'maintenance' | 'landing-open' | 'landing-close' | 'announcement' | 'experiment-stop';
export type ReservationStatus = 'scheduled' | 'running' | 'done' | 'ended' | 'cancelled' | 'failed';

export interface SystemReservationsTable {
  id: Id;
  kind: ReservationKind;
  title: string;
  starts_at: string;
  ends_at: string | null;
  payload: ColumnType<string, string | undefined, string>;
  status: ColumnType<ReservationStatus, ReservationStatus | undefined, ReservationStatus>;
  executed_at: string | null;
  finished_at: string | null;
  result: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  cancelled_at: string | null;
}

/** One row per process running the worker: its last sign of life (operations). */
interface WorkerHeartbeatsTable {
  id: string;
  host: string;
  pid: number;
  started_at: string;
  seen_at: string;
}

/** Settings every process of one database must agree on (the landing secret's fingerprint). */
interface SharedSettingsTable {
  key: string;
  value: string;
  source: string;
  updated_at: string;
}

export interface Database {
  operator_settings: OperatorSettingsTable;
  account_types: AccountTypesTable;
  accounts: AccountsTable;
  sessions: SessionsTable;
  code_items: CodeItemsTable;
  shops: ShopsTable;
  shop_permissions: ShopPermissionsTable;
  deny_rules: DenyRulesTable;
  audit_events: AuditEventsTable;
  landings: LandingsTable;
  privacy_policies: PrivacyPoliciesTable;
  leads: LeadsTable;
  lead_events: LeadEventsTable;
  lead_settings: LeadSettingsTable;
  lead_feed_counter: LeadFeedCounterTable;
  lead_follow_up: LeadFollowUpTable;
  counselor_settings: CounselorSettingsTable;
  lead_sla_settings: LeadSlaSettingsTable;
  lead_sla_state: LeadSlaStateTable;
  blocked_submissions: BlockedSubmissionsTable;
  visits: VisitsTable;
  visit_variants: VisitVariantsTable;
  landing_experiments: LandingExperimentsTable;
  landing_experiment_variants: LandingExperimentVariantsTable;
  uploads: UploadsTable;
  upload_variants: UploadVariantsTable;
  access_events: AccessEventsTable;
  destructions: DestructionsTable;
  lead_imports: LeadImportsTable;
  access_reviews: AccessReviewsTable;
  shop_contracts: ShopContractsTable;
  shop_contract_landings: ShopContractLandingsTable;
  shop_contract_media: ShopContractMediaTable;
  lead_returns: LeadReturnsTable;
  contract_cap_events: ContractCapEventsTable;
  ad_spend: AdSpendTable;
  cpa_targets: CpaTargetsTable;
  delivery_channels: DeliveryChannelsTable;
  delivery_jobs: DeliveryJobsTable;
  delivery_attempts: DeliveryAttemptsTable;
  api_keys: ApiKeysTable;
  system_reservations: SystemReservationsTable;
  worker_heartbeats: WorkerHeartbeatsTable;
  shared_settings: SharedSettingsTable;
  alert_preferences: AlertPreferencesTable;
  push_subscriptions: PushSubscriptionsTable;
  alert_sends: AlertSendsTable;
}

export type AccountTypeRow = Selectable<AccountTypesTable>;
export type ShopRow = Selectable<ShopsTable>;
export type CodeItemRow = Selectable<CodeItemsTable>;
export type DenyRuleRow = Selectable<DenyRulesTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdateRow = Updateable<AccountsTable>;
export type LandingRow = Selectable<LandingsTable>;
export type PrivacyPolicyRow = Selectable<PrivacyPoliciesTable>;
