import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router';
import { Brand } from '../components/Brand';
import { Button } from '../../shared/ui/primitives/button';
import { useSession } from '../entities/session/useSession';

/** Pages anyone may see: a header with sign-in links (or My Feed when signed in); the page, or `children`. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const { user } = useSession();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
          <Brand to="/" className="mr-auto" />
          <Button variant="ghost" asChild className="hidden sm:inline-flex">
            <Link to="/directory">Directory</Link>
          </Button>
          {user ? (
            <Button asChild>
              <Link to="/home">My Feed</Link>
            </Button>
          ) : (
            <>
              <Button variant="ghost" asChild>
                <Link to="/login">Log in</Link>
              </Button>
              <Button asChild>
                <Link to="/register">Sign up</Link>
              </Button>
            </>
          )}
        </div>
      </header>
      <main className="flex-1">
        {children ?? <Outlet />}
      </main>
      <footer className="border-t">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-6 text-sm text-muted-foreground sm:px-6">
          <p>Share, tag and curate the links that matter.</p>
          <Link to="/directory" className="font-medium hover:text-foreground">
            Browse the directory
          </Link>
        </div>
      </footer>
    </div>
  );
}
