import { describe, expect, it } from 'vitest';
import { loadConfig, originOf } from './config.ts';

describe('settings', () => {
  it('take PUBLIC_ORIGIN as a bare origin and stop the start on anything else, saying why', () => {
    expect(originOf(undefined)).toBeNull();
    expect(originOf(' ')).toBeNull();
    expect(originOf('https://lp.example.com')).toBe('https://lp.example.com');
    expect(originOf('https://LP.example.com:443/')).toBe('https://lp.example.com');
    expect(originOf('http://public.localhost:3001')).toBe('http://public.localhost:3001');
    for (const bad of ['lp.example.com', 'https://lp.example.com/view', 'ftp://lp.example.com', 'https://user@lp.example.com']) {
      expect(() => originOf(bad), bad).toThrow(/PUBLIC_ORIGIN/);
    }
  });

  it('log readable lines unless LOG_FORMAT=json, and accept form tokens for six hours by default', () => {
    expect(loadConfig({}).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({}).landingTokenMaxAgeHours).toBe(6);
    expect(loadConfig({ LANDING_TOKEN_MAX_AGE_HOURS: '2' }).landingTokenMaxAgeHours).toBe(2);
  });

  it('run the scheduled jobs (the automatic purge) unless WORKER=0', () => {
    expect(loadConfig({}).workerEnabled).toBe(true);
    expect(loadConfig({ WORKER: '1' }).workerEnabled).toBe(true);
    expect(loadConfig({ WORKER: '0' }).workerEnabled).toBe(false);
  });

  it('let webhooks and SMS gateways reach no internal range unless OUTBOUND_ALLOW_CIDRS names it, and stop the start on a bad range', () => {
    expect(loadConfig({}).outboundAllowCidrs).toEqual([]);
    expect(loadConfig({ OUTBOUND_ALLOW_CIDRS: '10.1.2.0/24,127.0.0.1/32' }).outboundAllowCidrs).toEqual(['10.1.2.0/24', '127.0.0.1/32']);
    expect(() => loadConfig({ OUTBOUND_ALLOW_CIDRS: '10.1.2.0/24,crm.local' })).toThrow(/OUTBOUND_ALLOW_CIDRS의 crm\.local/);
  });
});
