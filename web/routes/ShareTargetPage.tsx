import { LinkIcon } from 'lucide-react';
import { Suspense } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PWA_MESSAGES, URL_MAX_LENGTH, extractUrls, normalizeUrl, paths } from '../../shared/domain';
import { Button } from '../../shared/ui/primitives/button';
import { shareFormValuesOfPreview } from '../../shared/ui/sharePreview';
import { EmptyState } from '../components/EmptyState';
import { Loading } from '../components/Loading';
import { ShareNewLinkDialog } from '../entities/links/lazyDialogs';
import { useLinkPreview } from '../entities/links/useLinkQueries';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/**
 * The page a phone's share sheet opens (the manifest's share_target): GET ?title=&text=&url=.
 * The page's address is `url`, else the first one the import's URL extraction finds in `text`
 * (apps often put it there); then Preview & Share opens with it, its preview and the shared title.
 */
export function ShareTargetPage() {
  useDocumentTitle(PWA_MESSAGES.shareTitle);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const given = (params.get('url') ?? '').slice(0, URL_MAX_LENGTH);
  const text = params.get('text') ?? '';
  const url = (given && normalizeUrl(given)) || extractUrls(text)[0] || null;
  const preview = useLinkPreview(url);
  const home = () => void navigate(paths.home, { replace: true });

  if (!url) {
    return (
      <EmptyState level={1} icon={LinkIcon} title={PWA_MESSAGES.noLink} description={PWA_MESSAGES.noLinkHint}>
        <Button asChild>
          <Link to={paths.home}>Go to My Feed</Link>
        </Button>
      </EmptyState>
    );
  }
  if (preview.isPending) return <Loading />;
  const sharedTitle = (params.get('title') ?? '').trim();
  return (
    <>
      <h1 className="sr-only">{PWA_MESSAGES.shareTitle}</h1>
      <Suspense fallback={<Loading />}>
        <ShareNewLinkDialog
          open
          onOpenChange={(open) => !open && home()}
          initialValues={{
            ...(preview.data ? shareFormValuesOfPreview(preview.data) : {}),
            url,
            // The shared title first: the app it came from knows the page best.
            title: sharedTitle || preview.data?.title || '',
          }}
          onShared={() => {
            toast.success('Link shared');
            home();
          }}
        />
      </Suspense>
    </>
  );
}
