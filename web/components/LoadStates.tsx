import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../shared/ui/primitives/button';
import { FormError } from '../../shared/ui/primitives/form-error';
import { EmptyState } from './EmptyState';

/** A list (or, at `level` 1, a page) that could not be read: what failed, and a Retry button. */
export function ListLoadFailed({ title, onRetry, level }: { title: string; onRetry: () => void; level?: 1 | 2 }) {
  return (
    <EmptyState icon={CircleAlert} title={title} level={level} description="Check your connection and try again.">
      <Button onClick={onRetry}>Retry</Button>
    </EmptyState>
  );
}

/** A list while it loads: `count` skeletons, laid out as the list will be. */
export function ListSkeletons({ className, count, skeleton }: { className: string; count: number; skeleton: (index: number) => ReactNode }) {
  return (
    <div role="status" className={className}>
      <span className="sr-only">Loading...</span>
      {Array.from({ length: count }, (_, i) => skeleton(i))}
    </div>
  );
}

/** A section of a page whose read failed: the message, and a Retry button. */
export function SectionLoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="grid gap-3">
      <FormError message={message} />
      <div>
        <Button variant="outline" onClick={onRetry}>
          Retry
        </Button>
      </div>
    </div>
  );
}
