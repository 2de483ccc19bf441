import { describe, expect, it } from 'vitest';
import { sessionApi } from './session.ts';
import { authApi } from './auth.ts';

describe('sessionApi', () => {
  it('is authApi.login and authApi.logout as the login screen calls them', () => {
    for (const k of ['login', 'logout'] as const) {
      expect({ method: sessionApi[k].method, path: sessionApi[k].path }).toEqual({ method: authApi[k].method, path: authApi[k].path });
    }
    expect(sessionApi.logout.response).toBeNull();
    expect(authApi.logout.response).toBeNull();
    expect(sessionApi.login.response).not.toBeNull();
  });
});
