export const root: string;
export const serverEntry: string;
export function buildIfStale(note?: string): boolean;
