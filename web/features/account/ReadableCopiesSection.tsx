import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { READABLE_MESSAGES, readableProgressText } from '../../../shared/domain';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
import { Label } from '../../../shared/ui/primitives/label';
import { Switch } from '../../../shared/ui/primitives/switch';
import { SectionLoadFailed } from '../../components/LoadStates';
import { Loading } from '../../components/Loading';
import { api, messageOf } from '../../lib/api';
import { accountKeys } from './keys';
import { SaveStatus, SettingsCard } from './SettingsCard';
import { useInstantSetting } from './useInstantSetting';

/** While copies are still being made, the count is read again this often. */
const WAITING_REFRESH_MS = 30_000;

/**
 * Readable copies (issue 23): whether a copy of each saved page is kept, saved as soon as the switch
 * is flipped, and how many there are. Turning them off deletes every copy, so it is confirmed first;
 * the dialog stays open until the server agrees, and says so when it refuses.
 */
export function ReadableCopiesSection() {
  const switchId = useId();
  const hintId = `${switchId}-hint`;
  const settings = useQuery({
    queryKey: accountKeys.readableCopies,
    queryFn: ({ signal }) => api.readableCopySettings(signal),
    refetchInterval: (query) => (query.state.data?.waiting ? WAITING_REFRESH_MS : false),
  });
  const { choosing, saving, choose, mutation: save } = useInstantSetting(accountKeys.readableCopies, (keep: boolean) =>
    api.setReadableCopySettings({ keep }),
  );
  const [confirming, setConfirming] = useState(false);
  const error = save.error ? messageOf(save.error, READABLE_MESSAGES.saveFailed) : null;

  // While a save is under way the switch stays focusable (aria-disabled rather than disabled), as in the digest's card.
  const flip = (keep: boolean) => {
    if (saving) return;
    if (keep) return choose(true);
    save.reset();
    setConfirming(true);
  };

  return (
    <SettingsCard
      id="account-readable-copies"
      title={READABLE_MESSAGES.title}
      description="Read your links here as they were when you saved them."
    >
      {settings.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <SectionLoadFailed
          message={messageOf(settings.error, READABLE_MESSAGES.settingLoadFailed)}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <div className="grid gap-3">
          <div className="flex items-start justify-between gap-4">
            <div className="grid min-w-0 gap-1.5">
              <Label htmlFor={switchId}>{READABLE_MESSAGES.label}</Label>
              <p id={hintId} className="text-xs text-muted-foreground">
                {READABLE_MESSAGES.hint}
              </p>
            </div>
            <Switch
              id={switchId}
              checked={choosing ?? settings.data.keep}
              onCheckedChange={flip}
              aria-describedby={hintId}
              aria-disabled={saving || undefined}
              className="mt-0.5"
            />
          </div>
          {settings.data.keep && <p className="text-sm">{readableProgressText(settings.data)}</p>}
          <SaveStatus saving={saving} saved={save.isSuccess ? READABLE_MESSAGES.saved : null} error={confirming ? null : error} />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (saving) return;
          // A refusal shown in the dialog goes with it.
          save.reset();
          setConfirming(open);
        }}
        title={READABLE_MESSAGES.confirmOffTitle}
        description={READABLE_MESSAGES.confirmOff}
        confirmLabel={READABLE_MESSAGES.turnOff}
        busyLabel={READABLE_MESSAGES.turningOff}
        busy={saving}
        error={error}
        onConfirm={() => choose(false, { onSuccess: () => setConfirming(false) })}
      />
    </SettingsCard>
  );
}
