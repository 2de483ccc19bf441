// A unique constraint is the last word on a race two requests run at once: the service checks
// first (with a field-level message), and the constraint catches what the check could not.
import { conflict } from '../lib/errors.ts';
import { isUniqueViolation } from './dialect-sql.ts';

/** Runs a write; a unique-constraint hit (a race the service's own check missed) answers 409 on `field`. */
export async function uniqueOr409<T>(write: () => Promise<T>, field: string, message: string): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message, { [field]: message });
    throw err;
  }
}
