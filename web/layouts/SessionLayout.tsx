import { Suspense, lazy } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '../components/Loading';
import { useSession } from '../entities/session/useSession';
import { PublicLayout } from './PublicLayout';

/** The app's frame, loaded only for a signed-in user: a visitor's page does not carry it. */
const AppShell = lazy(() => import('./ProtectedLayout').then((m) => ({ default: m.AppShell })));

/**
 * Pages that both visitors and signed-in users open (a profile): inside the app for a signed-in
 * user, inside the public pages' frame for a visitor, whom the server renders it for.
 */
export function SessionLayout() {
  const { user, isPending } = useSession();
  if (isPending) return <Loading fullPage />;
  if (user) {
    return (
      <Suspense fallback={<Loading fullPage />}>
        <AppShell user={user} />
      </Suspense>
    );
  }
  return (
    <PublicLayout>
      <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 lg:px-8 lg:py-10">
        <Outlet />
      </div>
    </PublicLayout>
  );
}
