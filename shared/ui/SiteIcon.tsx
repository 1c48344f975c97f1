import { useState, type ReactNode } from 'react';
import { imageProxyUrl } from '../domain/url';
import { cn } from './cn';

/**
 * A site's icon (a link's faviconUrl) at 16 px, decorative, loaded like a Thumbnail: through our
 * image proxy, lazily, without a Referer. The fallback (nothing by default) when there is none or it
 * fails to load, also when it failed before the page's script ran (a server-rendered page): never a
 * broken image.
 */
export function SiteIcon({
  src,
  baseUrl = '',
  className,
  fallback = null,
}: {
  src: string | null | undefined;
  /** As in Thumbnail: our server's origin where the page is elsewhere (the extension). */
  baseUrl?: string;
  className?: string;
  fallback?: ReactNode;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const shown = imageProxyUrl(src);
  const url = shown && `${baseUrl}${shown}`;
  if (!url || failedSrc === url) return fallback;
  return (
    <img
      src={url}
      alt=""
      width={16}
      height={16}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      // Its error event may have fired before hydration, unheard: a broken image is complete with no width.
      ref={(img) => {
        if (img?.complete && img.naturalWidth === 0) setFailedSrc(url);
      }}
      onError={() => setFailedSrc(url)}
      className={cn('size-4 shrink-0 rounded-xs object-contain', className)}
    />
  );
}
