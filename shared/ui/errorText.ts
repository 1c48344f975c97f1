/**
 * The text to show for a failure of an injected async prop. Those props reject with an Error whose
 * message is already user-facing (the API client's ApiError, or an Error rebuilt from one by the
 * extension's messaging), so any Error's message is shown; anything else gives `fallback`.
 */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
