// What the rest of the server may use of the delivery module (the dependency rules hold every
// other module, and server/worker/, to this file): the outbox step that accepting leads runs in
// its own transaction, and the worker that sends the jobs, for the process that runs it.
export { writeDeliveryJobs, type OutboxLead } from './outbox.ts';
export { DELIVERY_NOTICE, deliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions, type SentReport } from './delivery-worker.ts';
// A text to one of the shop's staff through its SMS channel (counselors' alerts, through their link).
export { sendStaffText } from './staff-text.ts';
