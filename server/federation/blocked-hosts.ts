/**
 * FEDERATION_BLOCKED_HOSTS (docs/decisions.md, "Fediverse"): whether `hostname` is one of the
 * blocked servers, or a subdomain of one. Their activities are refused at the inbox (403), their
 * Follows not stored, and their inboxes sent nothing.
 */
export function isBlockedHost(hostname: string, blocked: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return blocked.some((b) => host === b || host.endsWith(`.${b}`));
}
