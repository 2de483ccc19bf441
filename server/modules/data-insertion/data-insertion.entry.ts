// What the rest of the server may use of the data-insertion module: the worker's cancelling of
// imports left waiting (server/worker/abandoned-imports.ts).
export { cancelAbandonedImports } from './data-insertion.service.ts';
