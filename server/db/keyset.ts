import { sql } from 'kysely';
import { LINK_MESSAGES } from '../../shared/domain';
import { badRequest } from '../errors';

/** Keyset pages (docs/decisions.md "Keyset pages"): opaque cursors and their range bound. */

export type CursorValue = string | number;

/** An opaque keyset cursor: a tag naming the sort, then the sort keys of a page's last row, in base64url JSON. */
export function encodeKeyset(tag: string, values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify([tag, ...values])).toString('base64url');
}

/** The values of a cursor made by encodeKeyset with the same tag and key types; else 400 'Invalid page cursor'. */
export function decodeKeyset(tag: string, types: readonly ('string' | 'number')[], cursor: string): CursorValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length === types.length + 1 &&
    parsed[0] === tag &&
    types.every((t, i) => typeof parsed[i + 1] === t);
  if (!valid) throw badRequest(LINK_MESSAGES.invalidCursor);
  return (parsed as CursorValue[]).slice(1);
}

/** `(a, b, c) < (?, ?, ?)` (or `>`): one range bound on an index of the same columns. */
export function keysetAfter(columns: readonly string[], direction: 'asc' | 'desc', values: readonly CursorValue[]) {
  const refs = sql.join(columns.map((c) => sql.ref(c)));
  return sql<boolean>`(${refs}) ${sql.raw(direction === 'desc' ? '<' : '>')} (${sql.join([...values])})`;
}
