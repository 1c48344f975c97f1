import { LoginForm } from '../features/auth/LoginForm';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function LoginPage() {
  useDocumentTitle('Log in');
  return <LoginForm />;
}
