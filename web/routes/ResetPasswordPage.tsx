import { useSearchParams } from 'react-router';
import { ResetPasswordForm } from '../features/account/ResetPasswordForm';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** /reset-password?token=…: where the reset e-mail's link opens. */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const [params] = useSearchParams();
  return <ResetPasswordForm token={params.get('token') ?? ''} />;
}
