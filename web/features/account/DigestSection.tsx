import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { DIGEST_FREQUENCIES, type DigestFrequency, READER_DIGEST_MESSAGES, paths } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { SectionLoadFailed } from '../../components/LoadStates';
import { Loading } from '../../components/Loading';
import { api, messageOf } from '../../lib/api';
import { accountKeys } from './keys';
import { SaveStatus, SettingsCard } from './SettingsCard';
import { useInstantSetting } from './useInstantSetting';

/**
 * How often the personal digest e-mail goes out: Off, Daily or Weekly, saved as soon as one is
 * picked. The pick shows at once, and goes back to the saved choice if the server refuses it. An
 * unverified address is told that it gets none until it is verified (the server sends only to those).
 */
export function DigestSection({ emailVerified }: { emailVerified: boolean }) {
  const name = useId();
  const hintId = `${name}-hint`;
  const digest = useQuery({ queryKey: accountKeys.digest, queryFn: ({ signal }) => api.readerDigest(signal) });
  const { choosing, saving, choose, mutation: save } = useInstantSetting(accountKeys.digest, (frequency: DigestFrequency) =>
    api.setReaderDigest({ frequency }),
  );

  // While a choice is being saved the others can't be picked; they stay focusable (aria-disabled
  // rather than disabled) so that a keyboard user doesn't lose their place in the group.
  const pick = (frequency: DigestFrequency) => {
    if (saving || frequency === digest.data?.frequency) return;
    choose(frequency);
  };

  return (
    <SettingsCard
      id="account-digest"
      title={READER_DIGEST_MESSAGES.title}
      description={
        <>
          What&apos;s new on your{' '}
          <Link to={paths.following} className="font-medium text-foreground underline underline-offset-4 hover:text-primary">
            Following
          </Link>{' '}
          feed, in your inbox.
        </>
      }
    >
      {digest.isPending ? (
        <Loading />
      ) : digest.isError ? (
        <SectionLoadFailed message={messageOf(digest.error, READER_DIGEST_MESSAGES.loadFailed)} onRetry={() => void digest.refetch()} />
      ) : (
        <div className="grid gap-3">
          <fieldset aria-describedby={hintId} aria-busy={saving} className="min-w-0">
            <legend className="mb-3 text-sm font-medium">{READER_DIGEST_MESSAGES.label}</legend>
            <div className="grid grid-cols-3 gap-2 sm:max-w-sm">
              {DIGEST_FREQUENCIES.map((frequency) => (
                <label
                  key={frequency}
                  className={cn(
                    'flex h-11 cursor-pointer items-center justify-center gap-2 rounded-lg border px-2 text-sm font-medium transition-colors select-none',
                    'hover:bg-muted/60 has-checked:border-primary has-checked:bg-accent has-checked:text-accent-foreground',
                    'has-focus-visible:ring-2 has-focus-visible:ring-ring has-focus-visible:ring-offset-2 has-focus-visible:ring-offset-background',
                    saving && 'cursor-progress opacity-60 hover:bg-transparent',
                  )}
                >
                  <input
                    type="radio"
                    name={name}
                    value={frequency}
                    checked={(choosing ?? digest.data.frequency) === frequency}
                    onChange={() => pick(frequency)}
                    aria-disabled={saving || undefined}
                    className="size-4 shrink-0 accent-primary outline-none"
                  />
                  {READER_DIGEST_MESSAGES.choices[frequency]}
                </label>
              ))}
            </div>
            <p id={hintId} className="mt-2 text-xs text-muted-foreground">
              {READER_DIGEST_MESSAGES.hint}
              {!emailVerified && <span className="mt-1 block text-amber-700 dark:text-amber-400">{READER_DIGEST_MESSAGES.unverified}</span>}
            </p>
          </fieldset>
          <SaveStatus
            saving={saving}
            saved={save.isSuccess ? READER_DIGEST_MESSAGES.saved : null}
            error={save.error ? messageOf(save.error, READER_DIGEST_MESSAGES.saveFailed) : null}
          />
        </div>
      )}
    </SettingsCard>
  );
}
