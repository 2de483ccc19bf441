// What the rest of the server may use of the system-reservations module: running the due
// reservations (server/worker/reservations.ts).
export { systemReservationsService, type ReservationDeps, type ReservationRun } from './system-reservations.service.ts';
