/**
 * CSV per RFC 4180, safe to open in a spreadsheet.
 *
 * - A field containing a comma, a double quote, CR or LF is enclosed in double quotes, and its
 *   double quotes are doubled. Lines end with CRLF.
 * - A value starting with = + - @ TAB or CR would be read as a formula by Excel, LibreOffice or
 *   Google Sheets (CSV injection, OWASP): it gets a leading single quote, which spreadsheets show
 *   as text. Neutralising comes first, quoting second.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export const CSV_LINE_END = '\r\n';

/** A value as it is safe to put in a spreadsheet cell: formula triggers prefixed with '. */
export function neutralizeCsvValue(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One field: neutralised, then quoted when RFC 4180 requires it. */
export function csvField(value: string | number | null | undefined): string {
  const text = neutralizeCsvValue(value === null || value === undefined ? '' : String(value));
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF. */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return values.map(csvField).join(',') + CSV_LINE_END;
}

/** A whole document: the header, then the rows. */
export function toCsv(header: readonly string[], rows: Iterable<readonly (string | number | null | undefined)[]>): string {
  let out = csvRow(header);
  for (const row of rows) out += csvRow(row);
  return out;
}
