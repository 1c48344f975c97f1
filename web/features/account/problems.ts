import { ApiError } from '../../../shared/api/client';
import { messageOf } from '../../lib/api';

/** An API failure's message, and whether the server's first validation issue is about `field`. */
export function problemOf(error: Error | null, fallback: string, field: string): { message: string; onField: boolean } | null {
  if (!error) return null;
  const issues = error instanceof ApiError ? error.details.issues : undefined;
  const path = Array.isArray(issues) ? (issues[0] as { path?: unknown } | undefined)?.path : undefined;
  return { message: messageOf(error, fallback), onField: path === field };
}
