import type { ComponentProps } from 'react';
import { cn } from '../cn';

/** A pill-shaped toggle button; `pressed` is announced as aria-pressed. */
export function ToggleChip({
  pressed,
  className,
  ...props
}: Omit<ComponentProps<'button'>, 'type' | 'aria-pressed'> & { pressed: boolean }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      className={cn(
        'inline-flex h-8 shrink-0 items-center gap-1.5 rounded-full border px-3 text-sm font-medium whitespace-nowrap transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 disabled:pointer-events-none disabled:opacity-50',
        pressed
          ? 'border-primary bg-primary text-primary-foreground shadow-sm'
          : 'border-border bg-card text-foreground hover:bg-muted',
        className,
      )}
      {...props}
    />
  );
}
