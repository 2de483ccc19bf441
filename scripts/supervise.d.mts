export function restartDelay(state: { startedAt: number; fails: number }, now?: number): number;
export function restartLine(who: string, code: number | null, signal: NodeJS.Signals | null, delay: number): string;
export function supervisorLog(tag: string, json?: boolean): (line: string) => void;
export function superviseServer(entry: string): void;
export const SERVER_NODE_FLAGS: string[];
