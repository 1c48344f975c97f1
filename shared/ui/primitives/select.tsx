import { ChevronDown } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../cn';
import { fieldClass } from './input';

/** A native select drawn like the other fields, with its chevron; full width unless `className` says otherwise. */
export function Select({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <div className="relative">
      <select className={cn(fieldClass, 'h-9 w-full cursor-pointer appearance-none pr-8', className)} {...props}>
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
