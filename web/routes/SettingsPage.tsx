import { PageHeader } from '../components/PageHeader';
import { ApiTokensSection } from '../features/account/ApiTokensSection';
import { DataSection } from '../features/account/DataSection';
import { DeleteAccountSection } from '../features/account/DeleteAccountSection';
import { DigestSection } from '../features/account/DigestSection';
import { EmailSection } from '../features/account/EmailSection';
import { PasswordSection } from '../features/account/PasswordSection';
import { ReadableCopiesSection } from '../features/account/ReadableCopiesSection';
import { SessionsSection } from '../features/account/SessionsSection';
import { useCurrentUser } from '../entities/session/currentUser';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** /settings: the account's lifecycle, its e-mail digest and readable copies (the profile itself is edited from the user block). */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const user = useCurrentUser();
  return (
    <>
      <PageHeader title="Settings" description="Your e-mail address and digest, readable copies, password, sessions, API tokens and data." />
      <section aria-labelledby="account-heading" className="grid gap-4">
        <h2 id="account-heading" className="text-lg font-semibold">
          Account
        </h2>
        <EmailSection user={user} />
        <DigestSection emailVerified={user.emailVerified === true} />
        <ReadableCopiesSection />
        <PasswordSection />
        <SessionsSection />
        <ApiTokensSection />
        <DataSection />
        <DeleteAccountSection user={user} />
      </section>
    </>
  );
}
