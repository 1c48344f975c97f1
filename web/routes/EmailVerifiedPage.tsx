import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ACCOUNT_MESSAGES } from '../../shared/domain';
import { Button } from '../../shared/ui/primitives/button';
import { EmptyState } from '../components/EmptyState';
import { queryKeys } from '../../shared/queries/keys';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** Where a verification (or e-mail change) link ends; Better Auth adds ?error=CODE when it failed. */
export function EmailVerifiedPage() {
  const [params] = useSearchParams();
  const failed = params.has('error');
  const title = failed ? ACCOUNT_MESSAGES.verifyLinkInvalid : ACCOUNT_MESSAGES.emailVerified;
  useDocumentTitle(title);
  const queryClient = useQueryClient();
  // The session in the cache still says "not verified": the banner goes once it is read again.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.session });
  }, [queryClient]);
  return (
    <div className="mx-auto w-full max-w-md px-4 py-16">
      <EmptyState
        icon={failed ? CircleAlert : CircleCheck}
        title={title}
        level={1}
        description={failed ? 'Ask for a new link in your account settings.' : 'Thank you: Supercurate may now send e-mail to this address.'}
      >
        <Button asChild>
          <Link to={failed ? '/settings' : '/home'}>{failed ? 'Account settings' : 'Go to My Feed'}</Link>
        </Button>
      </EmptyState>
    </div>
  );
}
