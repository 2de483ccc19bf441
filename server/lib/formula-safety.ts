// Text we write into a spreadsheet (exports, the 정산서, an import's error report) that came
// from a person or a file: a cell a spreadsheet would take for a formula is neutralised.

/** Starts a spreadsheet would read as a formula (or a DDE call): =, +, -, @, a tab, a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as text that no spreadsheet evaluates: a formula-like start gets a leading apostrophe. */
export function neutralise(v: string): string {
  return FORMULA_START.test(v) ? `'${v}` : v;
}
