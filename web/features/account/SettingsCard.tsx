import { Check, LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../../shared/ui/cn';
import { FormError } from '../../../shared/ui/primitives/form-error';

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

/**
 * The outcome of a setting saved as soon as it is changed: 'Saving...', then `saved` or the error.
 * One slot kept in place so the card doesn't jump; the status line stays mounted to be announced.
 */
export function SaveStatus({ saving, saved, error }: { saving: boolean; saved: string | null; error: string | null }) {
  return (
    <div className="min-h-5">
      <p
        role="status"
        className={cn('flex items-center gap-1.5 text-sm', !saving && saved ? 'text-emerald-700 dark:text-emerald-400' : 'text-muted-foreground')}
      >
        {saving ? (
          <>
            <LoaderCircle aria-hidden="true" className="size-4 shrink-0 animate-spin" />
            Saving...
          </>
        ) : saved ? (
          <>
            <Check aria-hidden="true" className="size-4 shrink-0" />
            {saved}
          </>
        ) : null}
      </p>
      <FormError message={saving ? null : error} />
    </div>
  );
}
