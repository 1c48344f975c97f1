import { CircleAlert, Menu } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { Navigate, Outlet } from 'react-router';
import { MSG, type UserProfile } from '../../shared/domain';
import { Brand, Logo } from '../components/Brand';
import { EmptyState } from '../components/EmptyState';
import { Loading } from '../components/Loading';
import { Button } from '../../shared/ui/primitives/button';
import { Sheet, SheetContent, SheetTitle } from '../../shared/ui/primitives/sheet';
import { VerifyEmailBanner } from '../features/account/VerifyEmailBanner';
import { useEditProfileDialog } from '../features/auth/useEditProfileDialog';
import { UserBlock } from '../features/auth/UserBlock';
import { useSession } from '../entities/session/useSession';
import { SearchBox } from '../features/search/SearchBox';
import { AppNav } from './AppNav';

/** The Edit profile modal, loaded when first opened (its form brings the validation library). */
const EditProfileDialog = lazy(() => import('../features/auth/EditProfileDialog').then((m) => ({ default: m.EditProfileDialog })));

/** Pages for signed-in users: waits for the session, sends anonymous visitors to /login. */
export function ProtectedLayout() {
  const { user, isPending, error, retry } = useSession();
  if (isPending) return <Loading fullPage />;
  if (user === undefined) {
    return (
      <main className="flex min-h-dvh items-center justify-center p-4">
        <EmptyState icon={CircleAlert} title={error ?? MSG.authInitFailed} level={1} className="w-full max-w-md">
          <Button onClick={retry}>Retry</Button>
        </EmptyState>
      </main>
    );
  }
  if (user === null) return <Navigate to="/login" replace />;
  return <AppShell user={user} />;
}

/** Sidebar on large screens, a top bar with a menu drawer on small ones. */
export function AppShell({ user }: { user: UserProfile }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const editingProfile = useEditProfileDialog((state) => state.open);
  return (
    <div className="min-h-dvh lg:pl-64">
      <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col border-r bg-card lg:flex">
        <div className="flex h-16 items-center px-5">
          <Brand to="/home" />
        </div>
        <SearchBox className="px-3 pb-1" />
        <AppNav />
        <UserBlock user={user} />
      </aside>

      <header className="sticky top-0 z-40 flex h-14 items-center gap-2 border-b bg-card/95 px-2 backdrop-blur lg:hidden">
        <Button variant="ghost" size="icon" aria-label="Open menu" onClick={() => setMenuOpen(true)}>
          <Menu aria-hidden="true" className="size-5" />
        </Button>
        <Brand to="/home" />
        <SearchBox className="ml-auto w-40 min-w-0 sm:w-56" />
      </header>
      <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
        <SheetContent closeLabel="Close menu" aria-describedby={undefined}>
          <SheetTitle className="flex h-14 items-center gap-2 px-5 text-lg font-bold tracking-tight">
            <Logo />
            Supercurate
          </SheetTitle>
          <AppNav onNavigate={() => setMenuOpen(false)} />
          <UserBlock user={user} />
        </SheetContent>
      </Sheet>

      <main className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-6 lg:px-8 lg:py-10">
        <VerifyEmailBanner user={user} />
        <Outlet context={user} />
      </main>
      {editingProfile && (
        <Suspense fallback={null}>
          <EditProfileDialog user={user} />
        </Suspense>
      )}
    </div>
  );
}
