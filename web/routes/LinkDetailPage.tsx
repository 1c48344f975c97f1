import { ArrowLeft, CircleAlert, Link2Off } from 'lucide-react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../shared/api/client';
import { LINK_MESSAGES } from '../../shared/domain';
import { Button } from '../../shared/ui/primitives/button';
import { EmptyState } from '../components/EmptyState';
import { Loading } from '../components/Loading';
import { useSession } from '../entities/session/useSession';
import { LinkDetail } from '../features/links/LinkDetail';
import { useLink } from '../entities/links/useLinkQueries';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** /links/{id}: anyone may open it. */
export function LinkDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // 'default' is the key of the page the app was opened on: there is no earlier page of ours.
  const hasHistory = useLocation().key !== 'default';
  const link = useLink(id);
  const { user } = useSession();
  const notFound = link.error instanceof ApiError && link.error.status === 404;
  const errorTitle = notFound ? LINK_MESSAGES.linkNotFound : LINK_MESSAGES.loadLinkFailed;
  useDocumentTitle(link.data?.title ?? (link.isError ? errorTitle : undefined));

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 sm:py-10">
      <Button
        variant="ghost"
        className="mb-4 -ml-3"
        onClick={() => (hasHistory ? navigate(-1) : navigate('/home'))}
      >
        <ArrowLeft aria-hidden="true" />
        Back
      </Button>
      {link.data ? (
        <LinkDetail link={link.data} viewerId={user?.id ?? null} />
      ) : link.isError ? (
        <EmptyState
          level={1}
          icon={notFound ? Link2Off : CircleAlert}
          title={errorTitle}
          description={notFound ? 'It may have been deleted.' : 'Check your connection and try again.'}
        >
          {!notFound && <Button onClick={() => void link.refetch()}>Retry</Button>}
          <Button variant="outline" asChild>
            <Link to="/home">Return to Home</Link>
          </Button>
        </EmptyState>
      ) : (
        <Loading />
      )}
    </div>
  );
}
