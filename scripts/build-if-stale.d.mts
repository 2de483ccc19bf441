export const root: string;
export const serverEntry: string;
export function buildSteps(): Array<{ name: string; label: string }>;
export function duration(seconds: number): string;
export function buildIfStale(note?: string): boolean;
