import { ImageOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { imageProxyUrl } from '../domain/url';
import { cn } from './cn';

interface ThumbnailProps {
  /** A link's thumbnail URL (external, or one of our uploads); without one only the fallback shows. */
  src: string | null | undefined;
  /** Origin of our server where the page is elsewhere (the extension); '' on the server's own pages. */
  baseUrl?: string;
  alt?: string;
  className?: string;
  /** Shown when there is no image or it fails to load (null: nothing); a muted icon by default. */
  fallback?: ReactNode;
}

/**
 * A link's picture, always loaded from our server: external images through its image proxy (so the
 * page keeps `img-src 'self'` and readers' browsers never contact third parties), lazily and
 * without a Referer. A missing or broken image gives way to the fallback.
 */
export function Thumbnail({ src: raw, baseUrl = '', alt = '', className, fallback }: ThumbnailProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const shown = imageProxyUrl(raw);
  const src = shown && `${baseUrl}${shown}`;
  if (!src || failedSrc === src) {
    if (fallback !== undefined) return fallback;
    return (
      <div className={cn('flex items-center justify-center bg-muted text-muted-foreground', className)}>
        <ImageOff aria-hidden="true" className="size-6" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setFailedSrc(src)}
      className={cn('bg-muted object-cover', className)}
    />
  );
}
