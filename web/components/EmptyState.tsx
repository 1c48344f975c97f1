import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../shared/ui/cn';

interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  /** A call to action below the text, e.g. a link back. */
  children?: ReactNode;
  /** Heading level of the title: 1 when the state is the whole page. */
  level?: 1 | 2 | 3;
  className?: string;
}

/** A friendly "nothing here" or error panel with an icon, a title and an optional action. */
export function EmptyState({ icon: Icon, title, description, children, level = 2, className }: EmptyStateProps) {
  const Heading = `h${level}` as const;
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-3 rounded-xl border border-dashed bg-card px-6 py-12 text-center',
        className,
      )}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <Heading className="text-base font-semibold">{title}</Heading>
      {description && <p className="max-w-sm text-sm text-muted-foreground">{description}</p>}
      {children && <div className="mt-2 flex flex-wrap justify-center gap-2">{children}</div>}
    </div>
  );
}
