import type { ReactNode } from 'react';
import { displayHost, type LinkFacts } from '../../../shared/domain';
import { SiteIcon } from '../../../shared/ui/SiteIcon';

type PublisherFacts = { url: string | null } & Pick<LinkFacts, 'siteName' | 'faviconUrl'>;

/**
 * Who published a link's page: the site's name when the page gives one, else its domain. The
 * domain stays in sight beside a name ('The Verge · theverge.com'): the name is only what the page
 * says of itself. Null without an http(s) URL.
 */
export function publisherText(facts: PublisherFacts): { name: string | null; host: string } | null {
  const host = facts.url ? displayHost(facts.url) : null;
  if (!host) return null;
  const name = facts.siteName?.trim() || null;
  // A site named after its domain ('Example.com') says it once.
  const sameAsHost = name !== null && name.toLowerCase().replace(/^www\./, '') === host.toLowerCase();
  return { name: sameAsHost ? null : name, host };
}

/**
 * The site's icon (when it has one, else `iconFallback`) and publisherText, on one line that
 * truncates (the domain first) in a flex row: put it inside an element with `flex min-w-0 items-center gap-1.5`.
 */
export function Publisher({ facts, iconFallback }: { facts: PublisherFacts; iconFallback?: ReactNode }) {
  const text = publisherText(facts);
  if (!text) return null;
  return (
    <>
      <SiteIcon src={facts.faviconUrl} fallback={iconFallback} />
      <span className="truncate">
        {text.name ?? text.host}
        {text.name && <span className="opacity-75">{` · ${text.host}`}</span>}
      </span>
    </>
  );
}
