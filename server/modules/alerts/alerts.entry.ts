// What the rest of the server may use of counselors' alerts: the notifier the worker hands intake's
// assignments and the SLA job's steps to, and the VAPID subject it signs with.
export { alertNotifier, type AlertNotifier, type StaffText } from './notifier.ts';
export { vapidSubject } from './vapid.ts';
