import { RegisterForm } from '../features/auth/RegisterForm';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function RegisterPage() {
  useDocumentTitle('Sign up');
  return <RegisterForm />;
}
