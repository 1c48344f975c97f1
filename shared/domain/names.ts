import { FEDIVERSE_USERNAME_MAX_LENGTH, SLUG_MAX_LENGTH } from './constants';

/** The topic id of SPEC §3: the lowercase name with runs of non-alphanumerics as one hyphen. */
export function topicIdOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * SPEC §5: the slug typed from the title: lowercase, runs of non-alphanumerics become one hyphen,
 * edge hyphens trimmed; accents are folded (é → e). Truncated to SLUG_MAX_LENGTH without a
 * trailing hyphen. May be '' (a title with no latin letter or digit): the user then types one.
 */
export function slugify(title: string): string {
  return topicIdOf(title).slice(0, SLUG_MAX_LENGTH).replace(/-+$/, '');
}

/** The e-mail's local part, used as a handle and as the fallback display name. */
export function handleOf(email: string): string {
  return email.split('@')[0] ?? email;
}

/**
 * A fediverse username made from a display name: as topicIdOf, with underscores for hyphens
 * (Mastodon's usernames have none), at most FEDIVERSE_USERNAME_MAX_LENGTH; 'curator' when nothing is left.
 */
export function usernameFromName(name: string): string {
  const made = topicIdOf(name).replaceAll('-', '_').slice(0, FEDIVERSE_USERNAME_MAX_LENGTH).replace(/_+$/, '');
  return made || 'curator';
}

/** The n-th variant of a username taken already: a number at its end, within the length limit. */
export function numberedUsername(base: string, n: number): string {
  return `${base.slice(0, FEDIVERSE_USERNAME_MAX_LENGTH - String(n).length)}${n}`;
}
