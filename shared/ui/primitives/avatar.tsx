import { cn } from '../cn';

/** Avatars are 256 px squares (uploads are re-encoded so; the generated SVG is drawn so). */
const AVATAR_PIXELS = 256;

interface AvatarProps {
  src: string;
  alt?: string;
  /** Its size: `size-*` (40 px by default). */
  className?: string;
  /** Above the fold and the largest picture there (a profile's header): fetched at once, with high priority. */
  priority?: boolean;
}

/**
 * A round user picture. Decorative by default: the name is always shown next to it. A square box
 * (width and height attributes besides the size class), loaded lazily unless it has `priority`.
 */
export function Avatar({ src, alt = '', className, priority = false }: AvatarProps) {
  return (
    <img
      src={src}
      alt={alt}
      width={AVATAR_PIXELS}
      height={AVATAR_PIXELS}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={cn('size-10 shrink-0 rounded-full bg-muted object-cover ring-1 ring-border', className)}
    />
  );
}
