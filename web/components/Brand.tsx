import { Link } from 'react-router';
import { cn } from '../../shared/ui/cn';

/** The product mark (the favicon's stacked lines). */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={cn('size-8 shrink-0', className)}>
      <rect width="64" height="64" rx="14" fill="#2563eb" />
      <rect x="14" y="14" width="36" height="8" rx="4" fill="#fff" opacity="0.55" />
      <rect x="14" y="28" width="36" height="8" rx="4" fill="#fff" opacity="0.8" />
      <rect x="14" y="42" width="24" height="8" rx="4" fill="#fff" />
    </svg>
  );
}

/** Logo and name, linking to `to`. */
export function Brand({ to, className }: { to: string; className?: string }) {
  return (
    <Link
      to={to}
      className={cn(
        'inline-flex items-center gap-2 rounded-md text-lg font-bold tracking-tight outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
        className,
      )}
    >
      <Logo />
      Supercurate
    </Link>
  );
}
