import { ImageOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { imageProxyUrl, imageSrcSet } from '../domain/url';
import { cn } from './cn';

interface ThumbnailProps {
  /** A link's thumbnail URL (external, or one of our uploads); without one only the fallback shows. */
  src: string | null | undefined;
  /** Origin of our server where the page is elsewhere (the extension); '' on the server's own pages. */
  baseUrl?: string;
  alt?: string;
  /** Give the picture its box here (a fixed size, or a width and an aspect ratio), so nothing moves when it loads. */
  className?: string;
  /** Shown when there is no image or it fails to load (null: nothing); a muted icon by default. */
  fallback?: ReactNode;
  /**
   * How wide the picture is shown, as `<img sizes>` (e.g. "(min-width: 640px) 144px, 64px"). With it
   * the browser picks from the 320/640/960 px variants our server makes (srcset) instead of the
   * full image; without it only the full image is offered.
   */
  sizes?: string;
  /** Intrinsic size (any pair with the box's ratio): the box keeps its shape even before the CSS arrives. */
  width?: number;
  height?: number;
  /**
   * The first picture a visitor sees (the page's likely Largest Contentful Paint): fetched at once
   * with `fetchpriority="high"` instead of lazily.
   */
  priority?: boolean;
}

/**
 * A link's picture, always loaded from our server: external images through its image proxy (so the
 * page keeps `img-src 'self'` and readers' browsers never contact third parties), without a
 * Referer, lazily unless it has `priority`, decoded off the main thread. A missing or broken image
 * gives way to the fallback. The markup depends on the props only (safe to render on the server).
 */
export function Thumbnail({
  src: raw,
  baseUrl = '',
  alt = '',
  className,
  fallback,
  sizes,
  width,
  height,
  priority = false,
}: ThumbnailProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const shown = imageProxyUrl(raw);
  const src = shown && `${baseUrl}${shown}`;
  if (!shown || !src || failedSrc === src) {
    if (fallback !== undefined) return fallback;
    return (
      <div className={cn('flex items-center justify-center bg-muted text-muted-foreground', className)}>
        <ImageOff aria-hidden="true" className="size-6" />
      </div>
    );
  }
  const srcSet = sizes ? imageSrcSet(shown, baseUrl) : null;
  return (
    <img
      sizes={srcSet ? sizes : undefined}
      srcSet={srcSet ?? undefined}
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setFailedSrc(src)}
      className={cn('bg-muted object-cover', className)}
    />
  );
}
