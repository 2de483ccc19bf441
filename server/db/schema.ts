// The typed Database interface: one entry per table. Timestamps are ISO-8601 UTC
// strings; booleans are 0/1 integers; JSON is text — the same on SQLite and PostgreSQL.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Id = Generated<number>;

export interface AccountTypesTable {
  id: Id;
  name: string;
  area: 'admin' | 'shop';
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

export interface AccountsTable {
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
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string; // sha256 of the cookie token
  account_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

export interface CodeItemsTable {
  id: Id;
  kind: 'client-type' | 'media-type' | 'event-type';
  name: string;
  code: string;
  sort_order: number;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface ShopsTable {
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

export interface ShopPermissionsTable {
  account_id: number;
  shop_id: number;
  created_at: string;
}

export interface DenyRulesTable {
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

export interface Database {
  account_types: AccountTypesTable;
  accounts: AccountsTable;
  sessions: SessionsTable;
  code_items: CodeItemsTable;
  shops: ShopsTable;
  shop_permissions: ShopPermissionsTable;
  deny_rules: DenyRulesTable;
  audit_events: AuditEventsTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type AccountTypeRow = Selectable<AccountTypesTable>;
export type ShopRow = Selectable<ShopsTable>;
export type CodeItemRow = Selectable<CodeItemsTable>;
export type DenyRuleRow = Selectable<DenyRulesTable>;
export type NewAccount = Insertable<AccountsTable>;
export type AccountUpdateRow = Updateable<AccountsTable>;
