/** 2026-11-21T01:02:03.000Z → "2026-11-21 10:02:03": the record's times are Seoul's, wherever the browser is. */
export const seoulTime = (iso: string) => new Date(Date.parse(iso) + 9 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
