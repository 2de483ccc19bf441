import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingTestApp, openLanding, shopAccount, type LandingTestApp } from '../../test-landings.ts';

let t: LandingTestApp;
let landingId: number;
beforeEach(async () => {
  t = await landingTestApp();
  landingId = await openLanding(t);
});
afterEach(async () => {
  await t.close();
});

const url = () => `/api/shops/${t.shopId}/landings/${landingId}/scripts`;
const PIXEL = {
  headScript: "<script>!function(f){f.fbq=function(){}}(window);fbq('init','123');</script>\n<noscript><img height=\"1\" width=\"1\" src=\"https://www.facebook.com/tr?id=123\"></noscript>",
  bodyScript: '<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>',
  conversionScript: "<script>fbq('track','Lead')</script>",
};

describe('landing scripts', () => {
  it('lets an account with write permission set scripts that the page then runs under its CSP nonce', async () => {
    const marketer = await shopAccount(t, 'marketer1', 'marketer');
    const res = await marketer.put(url(), PIXEL);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ landingId, ...PIXEL });
    expect((await marketer.get(`/api/shops/${t.shopId}/landing-scripts`)).json().items).toEqual([expect.objectContaining({ landingId, headScript: PIXEL.headScript })]);

    const page = await t.app.inject({ method: 'GET', url: '/view/smile/implant' });
    const nonce = /'nonce-([\w-]+)'/.exec(page.headers['content-security-policy'] as string)![1];
    expect(page.headers['content-security-policy']).toContain("'strict-dynamic'");
    expect(page.body).toContain(`<script nonce="${nonce}">!function(f)`);
    expect(page.body).toContain(`<script nonce="${nonce}" async src="https://www.googletagmanager.com/gtag/js?id=G-1">`);
    expect(page.body).toContain(`<template id="cv"><script nonce="${nonce}">fbq('track','Lead')</script></template>`);
    // Our own inline script plus the configured ones, nothing else.
    expect(page.body.match(/<script/g)).toHaveLength(4);
  });

  it('refuses script changes to accounts without landing-script-management write permission', async () => {
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.get(`/api/shops/${t.shopId}/landings`)).statusCode).toBe(200);
    const put = await owner.put(url(), PIXEL);
    expect(put.statusCode).toBe(403);
    expect(put.json().error.code).toBe('FORBIDDEN');
    expect((await owner.get(url())).statusCode).toBe(403);
    // Nor can landing-status write slip scripts in through the landing update.
    const marketer = await shopAccount(t, 'marketer2', 'marketer');
    const landing = (await marketer.get(`/api/shops/${t.shopId}/landings/${landingId}`)).json();
    await marketer.put(`/api/shops/${t.shopId}/landings/${landingId}`, { ...landing, ...PIXEL });
    expect((await t.admin.get(url())).json()).toMatchObject({ headScript: '', bodyScript: '', conversionScript: '' });
    expect((await t.app.inject({ method: 'GET', url: '/view/smile/implant' })).body.match(/<script/g)).toHaveLength(1);
  });

  it('refuses markup that would break out of the page structure', async () => {
    const res = await t.admin.put(url(), { ...PIXEL, conversionScript: '</template><script>alert(1)</script>' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('conversionScript');
  });
});
