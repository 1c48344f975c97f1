import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../shared/ui/primitives/button';
import { Checkbox } from '../../shared/ui/primitives/checkbox';
import { FormError } from '../../shared/ui/primitives/form-error';
import { Input } from '../../shared/ui/primitives/input';
import { Label } from '../../shared/ui/primitives/label';
import { serverApi, unreachable } from '../lib/api';
import { browser } from '../lib/browser';
import { tellBackground } from '../lib/messages';
import {
  DEFAULT_SERVER_URL,
  SERVER_URL_INVALID,
  loadSettings,
  parseServerUrl,
  saveServerUrl,
  serverPermissionPattern,
} from '../lib/settings';

type Status = { kind: 'idle' } | { kind: 'saved'; message: string } | { kind: 'error'; message: string };

const isFirefox = typeof navigator !== 'undefined' && navigator.userAgent.includes('Firefox');

/**
 * "Mark every page I already shared": `tabs`, and in Firefox the user's consent to send the URL of
 * each page visited to their server (browsingActivity, an optional data_collection_permission).
 */
const ALL_TABS = (
  isFirefox ? { permissions: ['tabs'], data_collection: ['browsingActivity'] } : { permissions: ['tabs'] }
) as Parameters<typeof browser.permissions.request>[0];

/**
 * Options: the server's address (default http://localhost:3000). Saving asks the browser for
 * access to that server only (an optional host permission), then checks that it answers.
 */
export function OptionsApp() {
  const [saved, setSaved] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);
  const [allTabs, setAllTabs] = useState(false);

  useEffect(() => {
    void loadSettings().then(({ serverUrl }) => {
      setSaved(serverUrl);
      setValue(serverUrl);
    });
    void browser.permissions.contains(ALL_TABS).then(setAllTabs);
  }, []);

  function save(event: FormEvent) {
    event.preventDefault();
    const serverUrl = parseServerUrl(value);
    setInvalid(serverUrl ? null : SERVER_URL_INVALID);
    if (!serverUrl) return;
    setBusy(true);
    setStatus({ kind: 'idle' });
    // Asked first, while the click still counts as the user's gesture (Firefox requires it).
    const granted = browser.permissions.request({ origins: [serverPermissionPattern(serverUrl)] });
    void finishSave(serverUrl, granted);
  }

  async function finishSave(serverUrl: string, granted: Promise<boolean>) {
    try {
      if (!(await granted.catch(() => false))) {
        setStatus({ kind: 'error', message: `Supercurate needs your permission to reach ${serverUrl}.` });
        return;
      }
      const previous = saved;
      await saveServerUrl(serverUrl);
      setSaved(serverUrl);
      setValue(serverUrl);
      if (previous && previous !== serverUrl) {
        const old = serverPermissionPattern(previous);
        // Access to the old server is no longer needed (unless the new one is on the same host).
        if (old !== serverPermissionPattern(serverUrl)) await browser.permissions.remove({ origins: [old] }).catch(() => false);
      }
      void tellBackground({ type: 'session-changed' });
      try {
        await serverApi(serverUrl).health();
        setStatus({ kind: 'saved', message: `Saved. Supercurate shares to ${serverUrl}.` });
      } catch {
        setStatus({ kind: 'error', message: `Saved, but: ${unreachable(serverUrl)}` });
      }
    } finally {
      setBusy(false);
    }
  }

  function toggleAllTabs(checked: boolean) {
    const change = checked
      ? browser.permissions.request(ALL_TABS)
      : browser.permissions.remove(ALL_TABS).then((removed) => !removed);
    void change.then((has) => setAllTabs(has)).catch(() => {});
  }

  return (
    <main className="mx-auto grid max-w-xl gap-8 p-6">
      <header className="flex items-center gap-3">
        <img src="/icon/48.png" alt="" className="size-10" />
        <div>
          <h1 className="text-xl font-semibold">Supercurate options</h1>
          <p className="text-sm text-muted-foreground">Internet. Curated.</p>
        </div>
      </header>

      <form noValidate onSubmit={save} className="grid gap-3" aria-label="Server">
        <Label htmlFor="server-url">Your Supercurate server</Label>
        <Input
          id="server-url"
          inputMode="url"
          placeholder={DEFAULT_SERVER_URL}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby="server-url-hint"
        />
        <p id="server-url-hint" className="text-sm text-muted-foreground">
          The address you open Supercurate at, e.g. https://curate.example.com. Default: {DEFAULT_SERVER_URL}.
        </p>
        {invalid && <p className="text-sm text-destructive">{invalid}</p>}
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving...' : 'Save'}
          </Button>
        </div>
        {status.kind === 'saved' && (
          <p role="status" className="text-sm text-emerald-700">
            {status.message}
          </p>
        )}
        {status.kind === 'error' && <FormError message={status.message} />}
      </form>

      <section className="grid gap-3" aria-labelledby="badge-heading">
        <h2 id="badge-heading" className="font-semibold">
          Pages you already shared
        </h2>
        <div className="flex items-start gap-3">
          <Checkbox id="all-tabs" className="mt-0.5" checked={allTabs} onChange={(e) => toggleAllTabs(e.target.checked)} />
          <div className="grid gap-1">
            <Label htmlFor="all-tabs">Mark every page I already shared</Label>
            <p className="text-sm text-muted-foreground">
              The toolbar button shows ✓ on pages you shared. To know them on every page, Supercurate must see the address of
              the tabs you visit and ask your server about it. Without this, it marks the pages you opened it on.
            </p>
          </div>
        </div>
      </section>

      <section className="grid gap-2" aria-labelledby="shortcut-heading">
        <h2 id="shortcut-heading" className="font-semibold">
          Keyboard shortcut
        </h2>
        <p className="text-sm text-muted-foreground">
          <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">Alt+Shift+S</kbd> opens Supercurate on
          the page you are on.{' '}
          {isFirefox
            ? 'Change it in about:addons → ⚙ → Manage Extension Shortcuts.'
            : 'Change it at chrome://extensions/shortcuts.'}
        </p>
      </section>
    </main>
  );
}
