import { LoaderCircle } from 'lucide-react';
import { cn } from '../../shared/ui/cn';

/** The 'Loading...' state, for a section or (fullPage) the whole screen. */
export function Loading({ fullPage = false }: { fullPage?: boolean }) {
  return (
    <div
      role="status"
      className={cn(
        'flex items-center justify-center gap-2 py-16 text-sm text-muted-foreground',
        fullPage && 'min-h-dvh',
      )}
    >
      <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
      Loading...
    </div>
  );
}
