import { ExternalLink, Settings } from 'lucide-react';
import { type ComponentProps, useCallback, useEffect, useRef, useState } from 'react';
import type { Link, ShareLinkInput } from '../../shared/domain/links';
import type { ReadableUpload } from '../../shared/domain/readable';
import { LINK_MESSAGES, MSG } from '../../shared/domain/messages';
import type { UserProfile } from '../../shared/domain/schemas';
import { ApiClientProvider } from '../../shared/queries/api-client';
import { useShareFormServices } from '../../shared/queries/share-form';
import { ShareForm, type ShareFormValues } from '../../shared/ui/PreviewShareDialog';
import { Button } from '../../shared/ui/primitives/button';
import { Dialog } from '../../shared/ui/primitives/dialog';
import { FormError } from '../../shared/ui/primitives/form-error';
import { type ApiClient, SESSION_EXPIRED, isNetworkError, isSessionLost, messageOf, serverApi } from '../lib/api';
import { pageKey } from '../lib/badge';
import { browser } from '../lib/browser';
import type { PageCapture } from '../lib/capture';
import { tellBackground } from '../lib/messages';
import { captureTab, whyNotShareable } from '../lib/pages';
import { hasServerPermission, loadSettings, rememberAccount } from '../lib/settings';
import { shareFormValuesOf } from '../../shared/ui/shareForm';
import { draftFromCapture, draftFromPreview, withReadableCopy } from '../lib/share';
import { SignInForm } from './SignInForm';
import { paths } from '../../shared/domain/paths';

/** The page being shared: the active tab, or tab N of `popup.html?tabId=N`. */
interface Target {
  id: number | undefined;
  url: string | undefined;
}

type View =
  | { kind: 'loading' }
  | { kind: 'setup' }
  | { kind: 'unreachable'; message: string }
  | { kind: 'signed-out'; notice: string | null }
  | { kind: 'cannot-share'; reason: string }
  | {
      kind: 'form';
      mode: 'create' | 'edit';
      link: Link | null;
      initialValues: Partial<ShareFormValues>;
      /** A new link's article, as the capture read it from the page (sent with the share). */
      readable?: ReadableUpload | null;
    }
  | { kind: 'done'; mode: 'create' | 'edit'; link: Link };

/** `?tabId=N`: the popup opened in a full tab, for tab N ('Open in a tab', and the end-to-end tests). */
function tabIdParam(): number | null {
  const raw = new URLSearchParams(window.location.search).get('tabId');
  const id = raw === null ? Number.NaN : Number(raw);
  return Number.isInteger(id) && id >= 0 ? id : null;
}

async function resolveTarget(tabId: number | null): Promise<Target | null> {
  try {
    if (tabId !== null) {
      const tab = await browser.tabs.get(tabId);
      return { id: tab.id, url: tab.url };
    }
    const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
    return tab ? { id: tab.id, url: tab.url } : null;
  } catch {
    return null;
  }
}

/**
 * The toolbar popup: Preview & Share filled from the page's own DOM (no server round-trip to fill
 * it), or, when the user already shared the page, the same form in edit mode ('Update'). Signs in
 * and out against the user's server.
 */
export function PopupApp() {
  const [inTab] = useState(tabIdParam);
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [serverUrl, setServerUrl] = useState('');
  const [api, setApi] = useState<ApiClient | null>(null);
  const [user, setUser] = useState<UserProfile | null>(null);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const target = useRef<Promise<Target | null> | null>(null);
  const capture = useRef<Promise<PageCapture | null> | null>(null);
  const saved = useRef<Link | null>(null);

  /** Signed in: the form, in edit mode when the page (its address or canonical URL) was shared already. */
  const prepareForm = useCallback(
    async (client: ApiClient, byAddress: Promise<Link | null>) => {
      const tab = await target.current;
      const reason = whyNotShareable(tab?.url);
      if (reason || !tab?.url) {
        return setView({ kind: 'cannot-share', reason: reason ?? '' });
      }
      const url = tab.url;
      const [found, page] = await Promise.all([byAddress, capture.current]);
      let existing = found;
      if (!existing && page?.canonicalUrl && pageKey(page.canonicalUrl) !== pageKey(url)) {
        existing = await client.lookupLink(page.canonicalUrl).catch(() => null);
      }
      if (existing) {
        void tellBackground({ type: 'link-saved', tabId: tab.id ?? null, urls: [url], linkId: existing.id });
        setView({ kind: 'form', mode: 'edit', link: existing, initialValues: shareFormValuesOf(existing) });
      } else if (page && !page.empty) {
        setView({ kind: 'form', mode: 'create', link: null, initialValues: draftFromCapture(page), readable: page.readable });
      } else {
        // The page says nothing of itself (a PDF, a page we may not script): the server's preview.
        const preview = await client.preview(url).catch(() => null);
        setView({ kind: 'form', mode: 'create', link: null, initialValues: draftFromPreview(url, preview, page) });
      }
      // When the form was filled: the end-to-end tests time 'filled from the page in under 200 ms' with it.
      performance.mark('supercurate:filled');
    },
    [],
  );

  const start = useCallback(async () => {
    // The page is read at once, while the server is asked who is signed in.
    target.current ??= resolveTarget(inTab);
    capture.current ??= target.current.then((tab) =>
      tab?.id !== undefined && !whyNotShareable(tab.url) ? captureTab(tab.id) : null,
    );
    const settings = await loadSettings();
    setServerUrl(settings.serverUrl);
    const client = serverApi(settings.serverUrl);
    setApi(client);
    // Asked together with the session: was this page shared already? (401 when signed out: ignored.)
    const byAddress = target.current.then((tab) =>
      tab?.url && !whyNotShareable(tab.url) ? client.lookupLink(tab.url).catch(() => null) : null,
    );
    let me: UserProfile | null;
    try {
      me = await client.me();
    } catch (err) {
      // Without the host permission the browser blocks the call like an unreachable server.
      if (isNetworkError(err) && !(await hasServerPermission(settings.serverUrl))) return setView({ kind: 'setup' });
      return setView({ kind: 'unreachable', message: messageOf(err, settings.serverUrl, MSG.authFailed) });
    }
    setUser(me);
    if (!me) {
      await rememberAccount(null);
      return setView({ kind: 'signed-out', notice: settings.account ? SESSION_EXPIRED : null });
    }
    if (settings.account?.id !== me.id) {
      await rememberAccount({ id: me.id, name: me.name, email: me.email ?? '' });
      void tellBackground({ type: 'session-changed' });
    }
    await prepareForm(client, byAddress);
  }, [inTab, prepareForm]);

  useEffect(() => {
    document.documentElement.dataset.surface = inTab === null ? 'popup' : 'tab';
    // Everything the popup shows comes from the browser and the server, asynchronously.
    void Promise.resolve().then(start);
  }, [inTab, start]);

  function restart() {
    setView({ kind: 'loading' });
    void start();
  }

  async function closeSurface() {
    if (inTab === null) return window.close();
    const tab = await browser.tabs.getCurrent();
    if (tab?.id !== undefined) await browser.tabs.remove(tab.id);
  }

  async function openInTab() {
    const tab = await target.current;
    const query = tab?.id === undefined ? '' : `?tabId=${tab.id}`;
    await browser.tabs.create({ url: browser.runtime.getURL(`/popup.html${query}`) });
    window.close();
  }

  async function signOut() {
    if (!api) return;
    setSignOutError(null);
    try {
      await api.signOut();
    } catch (err) {
      return setSignOutError(messageOf(err, serverUrl, MSG.signOutFailed));
    }
    await rememberAccount(null);
    void tellBackground({ type: 'session-changed' });
    setUser(null);
    setView({ kind: 'signed-out', notice: null });
  }

  async function submit(mode: 'create' | 'edit', link: Link | null, input: ShareLinkInput) {
    if (!api) return;
    try {
      const result = mode === 'edit' && link ? await api.updateLink(link.id, input) : await api.createLink(input);
      saved.current = result;
      const tab = await target.current;
      const urls = [tab?.url, result.url].filter((u): u is string => Boolean(u));
      void tellBackground({ type: 'link-saved', tabId: tab?.id ?? null, urls, linkId: result.id });
    } catch (err) {
      if (isSessionLost(err)) {
        setUser(null);
        setView({ kind: 'signed-out', notice: SESSION_EXPIRED });
      }
      const fallback = mode === 'edit' ? LINK_MESSAGES.updateLinkFailed : LINK_MESSAGES.shareLinkFailed;
      throw new Error(messageOf(err, serverUrl, fallback));
    }
  }

  return (
    <div className={inTab === null ? 'grid gap-4 p-4' : 'mx-auto grid max-w-2xl gap-6 p-6'}>
      <header className="flex items-center gap-2">
        <img src="/icon/32.png" alt="" className="size-6" />
        <span className="font-semibold">Supercurate</span>
        <div className="ml-auto flex items-center gap-1">
          {inTab === null && view.kind === 'form' && (
            <Button variant="ghost" size="sm" onClick={() => void openInTab()}>
              <ExternalLink aria-hidden="true" />
              Open in a tab
            </Button>
          )}
          <Button variant="ghost" size="icon" aria-label="Options" onClick={() => void browser.runtime.openOptionsPage()}>
            <Settings aria-hidden="true" />
          </Button>
        </div>
      </header>

      {user && (
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
          <span>
            Signed in as <span className="font-medium text-foreground">{user.name}</span>
          </span>
          <Button variant="link" size="sm" className="h-auto px-0" onClick={() => void signOut()}>
            Sign out
          </Button>
          <div className="basis-full">
            <FormError message={signOutError} />
          </div>
        </div>
      )}

      <main className="grid gap-4">
        {view.kind === 'loading' && (
          <p role="status" className="text-sm text-muted-foreground">
            Loading...
          </p>
        )}

        {view.kind === 'setup' && (
          <section className="grid gap-3">
            <h1 className="text-lg font-semibold">Connect to your Supercurate server</h1>
            <p className="text-sm text-muted-foreground">
              Supercurate needs your permission to reach your server at{' '}
              <span className="font-medium text-foreground">{serverUrl}</span>. Check its address and allow access in
              Options.
            </p>
            <Button onClick={() => void browser.runtime.openOptionsPage().then(() => window.close())}>Open Options</Button>
          </section>
        )}

        {view.kind === 'unreachable' && (
          <section className="grid gap-3">
            <FormError message={view.message} />
            <div className="flex gap-2">
              <Button onClick={restart}>Try again</Button>
              <Button variant="outline" onClick={() => void browser.runtime.openOptionsPage()}>
                Options
              </Button>
            </div>
          </section>
        )}

        {view.kind === 'signed-out' && api && (
          <SignInForm api={api} serverUrl={serverUrl} notice={view.notice} onSignedIn={restart} />
        )}

        {view.kind === 'cannot-share' && (
          <p role="status" className="rounded-md border bg-muted px-3 py-2 text-sm">
            {view.reason}
          </p>
        )}

        {view.kind === 'form' && (
          <section aria-labelledby="share-heading" className="grid gap-4">
            {view.mode === 'edit' && (
              <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
                You already shared this page. Update it below.
              </p>
            )}
            <div className="grid gap-1">
              <h1 id="share-heading" className="text-lg font-semibold">
                {view.mode === 'edit' ? 'Edit link' : 'Preview & Share'}
              </h1>
              <p className="text-sm text-muted-foreground">
                {view.mode === 'edit'
                  ? 'Change the details, format and topics of this link.'
                  : 'Check the details, pick a format and topics, then share it to your feed.'}
              </p>
            </div>
            {/* A bare dialog root: the form's Cancel reports onOpenChange(false), which closes the popup. */}
            <Dialog open onOpenChange={(open) => void (open || closeSurface())}>
              {api && (
                <ApiClientProvider client={api}>
                  <PopupShareForm
                    serverUrl={serverUrl}
                    mode={view.mode}
                    initialValues={view.initialValues}
                    onSubmit={(input) =>
                      submit(view.mode, view.link, withReadableCopy(input, view.initialValues.url ?? '', view.readable ?? null))
                    }
                    onDone={() => saved.current && setView({ kind: 'done', mode: view.mode, link: saved.current })}
                  />
                </ApiClientProvider>
              )}
            </Dialog>
          </section>
        )}

        {view.kind === 'done' && (
          <section aria-labelledby="done-heading" className="grid gap-3">
            <h1 id="done-heading" className="text-lg font-semibold">
              {view.mode === 'edit' ? 'Link updated' : 'Link shared'}
            </h1>
            <p className="text-sm">{view.link.title}</p>
            <div className="flex gap-2">
              <Button asChild>
                <a href={`${serverUrl}${paths.link(view.link.id)}`} target="_blank" rel="noreferrer">
                  View on Supercurate
                </a>
              </Button>
              <Button variant="outline" onClick={() => void closeSurface()}>
                Close
              </Button>
            </div>
          </section>
        )}
      </main>
    </div>
  );
}

type ShareFormProps = ComponentProps<typeof ShareForm>;

/**
 * Preview & Share with the user's topics and collections, through the web app's own query hooks. A
 * failure reads as the web app's, or names the server when it could not be reached.
 */
function PopupShareForm({
  serverUrl,
  ...props
}: Omit<ShareFormProps, 'topics' | 'supercurations' | 'uploadImage' | 'createTopic' | 'assetBaseUrl'> & { serverUrl: string }) {
  const services = useShareFormServices();
  const failed = (fallback: string) => (err: unknown): never => {
    throw new Error(messageOf(err, serverUrl, fallback));
  };
  return (
    <ShareForm
      {...props}
      {...services}
      uploadImage={(file) => services.uploadImage(file).catch(failed(LINK_MESSAGES.uploadImageFailed))}
      createTopic={(input) => services.createTopic(input).catch(failed(LINK_MESSAGES.addTopicFailed))}
      assetBaseUrl={serverUrl}
    />
  );
}
