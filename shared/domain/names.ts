import { SLUG_MAX_LENGTH } from './constants';

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
