import { useMutation } from '@tanstack/react-query';
import { MailWarning } from 'lucide-react';
import { ACCOUNT_MESSAGES, type UserProfile } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { api, messageOf } from '../../lib/api';

/** Until the address is verified: says so, and offers to resend the link. */
export function VerifyEmailBanner({ user }: { user: UserProfile }) {
  const resend = useMutation({ mutationFn: () => api.resendVerification(user.email ?? '') });
  if (user.emailVerified !== false) return null;
  const note = resend.isSuccess
    ? ACCOUNT_MESSAGES.verificationSent
    : resend.error
      ? messageOf(resend.error, ACCOUNT_MESSAGES.verificationFailed)
      : null;
  return (
    <div
      role="region"
      aria-label="E-mail verification"
      className="mb-6 flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 sm:flex-row sm:items-center dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <MailWarning aria-hidden="true" className="hidden size-5 shrink-0 sm:block" />
      <div className="min-w-0 flex-1">
        <p>
          Please verify your e-mail address: open the link we sent to <span className="font-medium break-all">{user.email}</span>.
        </p>
        {note && (
          <p role="status" className="mt-1 font-medium">
            {note}
          </p>
        )}
      </div>
      <Button variant="outline" size="sm" className="shrink-0" disabled={resend.isPending || resend.isSuccess} onClick={() => resend.mutate()}>
        {resend.isPending ? 'Sending...' : 'Resend e-mail'}
      </Button>
    </div>
  );
}
