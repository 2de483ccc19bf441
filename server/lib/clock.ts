export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
export const addMinutes = (d: Date, m: number) => new Date(d.getTime() + m * 60_000);
