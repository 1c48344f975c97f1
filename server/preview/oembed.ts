import type { FormatId } from '../../shared/domain';

/**
 * What an oEmbed endpoint (https://oembed.com, found by discovery in the page) adds to a preview:
 * the player's thumbnail and the format its type suggests. Only the discovered URL is fetched,
 * through the same SSRF-guarded fetcher as the page (server/preview/service.ts).
 */
export interface OEmbedFacts {
  title: string | null;
  thumbnailUrl: string | null;
  author: string | null;
  providerName: string | null;
  format: FormatId | null;
}

/** An oEmbed answer larger than this is not one. */
export const OEMBED_MAX_BYTES = 64 * 1024;

/** Providers whose embeds are podcast episodes or shows. */
const PODCAST_PROVIDERS =
  /podcast|acast|anchor|buzzsprout|captivate|castbox|libsyn|megaphone|omny|podbean|simplecast|spreaker|transistor|audioboom|redcircle/i;

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** The facts of an oEmbed JSON answer, or null when it is not an oEmbed object. */
export function readOEmbed(json: unknown): OEmbedFacts | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  const type = text(o.type)?.toLowerCase();
  if (!type || !['video', 'rich', 'photo', 'link'].includes(type)) return null;
  const providerName = text(o.provider_name);
  const html = text(o.html) ?? '';
  const audio = PODCAST_PROVIDERS.test(`${providerName ?? ''} ${text(o.provider_url) ?? ''}`) || /<audio\b/i.test(html);
  return {
    title: text(o.title),
    thumbnailUrl: text(o.thumbnail_url) ?? (type === 'photo' ? text(o.url) : null),
    author: text(o.author_name),
    providerName,
    format: type === 'video' ? 'video' : type === 'rich' && audio ? 'podcast' : null,
  };
}
