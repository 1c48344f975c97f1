import { cn } from '../cn';

/** A round user picture. Decorative by default: the name is always shown next to it. */
export function Avatar({ src, alt = '', className }: { src: string; alt?: string; className?: string }) {
  return (
    <img
      src={src}
      alt={alt}
      className={cn('size-10 shrink-0 rounded-full bg-muted object-cover ring-1 ring-border', className)}
    />
  );
}
