// What the worker may call of the landings module: the scheduled stops of A/B experiments.
export { experimentsService } from './experiments.service.ts';
