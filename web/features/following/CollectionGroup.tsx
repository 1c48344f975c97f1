import type { ReactNode } from 'react';

/** One of the owner's collections on the dashboard, with how many of `noun` it has, and their list. */
export function CollectionGroup({ title, count, noun, children }: { title: string; count: number; noun: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border p-4">
      <h3 className="mb-2 font-medium">
        {title}{' '}
        <span className="text-sm font-normal text-muted-foreground">
          ({count} {count === 1 ? noun : `${noun}s`})
        </span>
      </h3>
      {children}
    </div>
  );
}
