import type { ReactNode } from 'react';
import { cn } from './cn';

/** A topic's name with a dot of its colour (the text stays dark, so every palette colour reads well). */
export function TopicChip({ name, color, className, children }: { name: string; color: string; className?: string; children?: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex max-w-full items-center gap-1.5 rounded-full border bg-card px-2.5 py-0.5 text-xs font-medium',
        className,
      )}
      style={{ borderColor: `${color}59` }}
    >
      <span aria-hidden="true" className="size-2 shrink-0 rounded-full" style={{ backgroundColor: color }} />
      <span className="truncate">{name}</span>
      {children}
    </span>
  );
}
