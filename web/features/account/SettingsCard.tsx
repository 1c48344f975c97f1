import type { ReactNode } from 'react';

/** One titled part of the Account settings. */
export function SettingsCard({ id, title, description, children }: { id: string; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border bg-card p-4 sm:p-6">
      <h3 id={id} className="text-base font-semibold">
        {title}
      </h3>
      {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A short success line, announced to screen readers. */
export function Done({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
      {message}
    </p>
  );
}
