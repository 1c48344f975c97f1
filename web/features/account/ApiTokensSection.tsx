import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_MESSAGES,
  API_TOKEN_NAME_MAX,
  type ApiToken,
  type CreatedApiToken,
  createApiTokenSchema,
} from '../../../shared/domain';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
import { Button } from '../../../shared/ui/primitives/button';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Field, invalidProps } from '../../../shared/ui/primitives/field';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { cn } from '../../../shared/ui/cn';
import { Loading } from '../../components/Loading';
import { api, messageOf } from '../../lib/api';
import { fullDateTime, longDate, relativeTime } from '../../lib/dates';
import { accountKeys } from './keys';
import { Done, SettingsCard } from './SettingsCard';
import { Select } from '../../../shared/ui/primitives/select';
import { SectionLoadFailed } from '../../components/LoadStates';

const expiryLabel = (days: number) => (days === 365 ? '1 year' : `${days} days`);

/** Created, last used and expiry of a token, in words; `now` is when the list was loaded. */
function TokenTimes({ token, now }: { token: ApiToken; now: number }) {
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
  return (
    <p className="text-xs text-muted-foreground">
      Created <time dateTime={token.createdAt} title={fullDateTime(token.createdAt)}>{relativeTime(token.createdAt)}</time>
      {' · '}
      {token.lastUsedAt ? (
        <>
          last used <time dateTime={token.lastUsedAt} title={fullDateTime(token.lastUsedAt)}>{relativeTime(token.lastUsedAt)}</time>
        </>
      ) : (
        'never used'
      )}
      {' · '}
      {token.expiresAt === null ? (
        'never expires'
      ) : (
        <span className={cn(expired && 'font-medium text-destructive')}>
          {expired ? 'expired' : 'expires'} <time dateTime={token.expiresAt} title={fullDateTime(token.expiresAt)}>{longDate(token.expiresAt)}</time>
        </span>
      )}
    </p>
  );
}

/** The new token, shown once, with a copy button. */
function NewToken({ created, onDone }: { created: CreatedApiToken; onDone: () => void }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(created.token);
      toast.success(API_TOKEN_MESSAGES.copied);
    } catch {
      toast.error(API_TOKEN_MESSAGES.copyFailed);
    }
  }
  return (
    <div className="grid gap-2 rounded-lg border border-emerald-600/40 bg-emerald-50 p-3 dark:bg-emerald-950/30">
      <Done message={API_TOKEN_MESSAGES.created} />
      <Label htmlFor="api-token-value">Your new token “{created.name}”</Label>
      <div className="flex gap-2">
        <Input
          id="api-token-value"
          readOnly
          value={created.token}
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
          spellCheck={false}
        />
        <Button type="button" variant="outline" size="icon" aria-label="Copy token" title="Copy token" onClick={() => void copy()}>
          <Copy aria-hidden="true" className="size-4" />
        </Button>
      </div>
      <div>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

/**
 * Settings → API tokens: create one (name, optional expiry) and see it once, list mine with their
 * created and last-used times, revoke one after a confirmation.
 */
export function ApiTokensSection() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: accountKeys.apiTokens, queryFn: ({ signal }) => api.listApiTokens(signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.apiTokens });
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const create = useMutation({
    mutationFn: api.createApiToken,
    onSuccess: (token) => {
      setCreated(token);
      setName('');
      setExpiry('');
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (token: ApiToken) => api.revokeApiToken(token.id),
    onSuccess: () => {
      setRevoking(null);
      toast.success(API_TOKEN_MESSAGES.revoked);
      void refresh();
    },
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = createApiTokenSchema.safeParse({ name, expiresInDays: expiry ? Number(expiry) : null });
    setInvalid(parsed.success ? null : (parsed.error.issues[0]?.message ?? API_TOKEN_MESSAGES.nameRequired));
    if (parsed.success) create.mutate(parsed.data);
  }

  const list = tokens.data ?? [];
  return (
    <SettingsCard
      id="account-api-tokens"
      title="API tokens"
      description={
        <>
          Scripts and apps can use the API as you with a token: send it as <code className="text-xs">Authorization: Bearer &lt;token&gt;</code>.
        </>
      }
    >
      <div className="grid gap-4">
        <form onSubmit={onSubmit} className="grid gap-3 sm:max-w-xl" noValidate>
          <div className="grid gap-3 sm:grid-cols-[1fr_auto]">
            <Field id="api-token-name" label="Token name" error={invalid ?? undefined}>
              <Input
                id="api-token-name"
                value={name}
                maxLength={API_TOKEN_NAME_MAX}
                placeholder="e.g. Reading-list script"
                onChange={(e) => setName(e.target.value)}
                {...invalidProps('api-token-name', invalid ?? undefined)}
              />
            </Field>
            <div className="grid gap-2">
              <Label htmlFor="api-token-expiry">Expires</Label>
              <Select
                id="api-token-expiry"
                value={expiry}
                onChange={(e) => setExpiry(e.target.value)}
              >
                <option value="">Never</option>
                {API_TOKEN_EXPIRY_DAYS.map((days) => (
                  <option key={days} value={String(days)}>
                    In {expiryLabel(days)}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          <div>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create token'}
            </Button>
          </div>
          <FormError message={create.error && messageOf(create.error, API_TOKEN_MESSAGES.createFailed)} />
        </form>

        {created && <NewToken created={created} onDone={() => setCreated(null)} />}

        {tokens.isPending ? (
          <Loading />
        ) : tokens.isError ? (
          <SectionLoadFailed message={messageOf(tokens.error, API_TOKEN_MESSAGES.loadFailed)} onRetry={() => void tokens.refetch()} />
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">No API tokens yet.</p>
        ) : (
          <ul aria-label="API tokens" className="divide-y rounded-lg border">
            {list.map((token) => (
              <li key={token.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center">
                <KeyRound aria-hidden="true" className="hidden size-5 shrink-0 text-muted-foreground sm:block" />
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium break-words">{token.name}</p>
                  <TokenTimes token={token} now={tokens.dataUpdatedAt} />
                </div>
                <div>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Revoke token ${token.name}`}
                    onClick={() => {
                      revoke.reset();
                      setRevoking(token);
                    }}
                  >
                    Revoke
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        title={`Revoke token “${revoking?.name ?? ''}”?`}
        description={API_TOKEN_MESSAGES.revokeConfirm}
        confirmLabel="Revoke"
        busyLabel="Revoking..."
        busy={revoke.isPending}
        error={revoke.error && messageOf(revoke.error, API_TOKEN_MESSAGES.revokeFailed)}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
    </SettingsCard>
  );
}
