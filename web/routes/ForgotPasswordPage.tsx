import { ForgotPasswordForm } from '../features/account/ForgotPasswordForm';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function ForgotPasswordPage() {
  useDocumentTitle('Reset password');
  return <ForgotPasswordForm />;
}
