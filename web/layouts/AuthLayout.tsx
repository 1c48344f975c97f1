import { Link, Navigate, Outlet } from 'react-router';
import { Logo } from '../components/Brand';
import { Loading } from '../components/Loading';
import { useSession } from '../entities/session/useSession';

/** Sign-in and sign-up pages: the product name as heading; signed-in users go to /home. */
export function AuthLayout() {
  const { user, isPending } = useSession();
  if (isPending) return <Loading fullPage />;
  if (user) return <Navigate to="/home" replace />;
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-accent to-background px-4 py-10">
      <div className="mb-8 flex flex-col items-center gap-3 text-center">
        <Link
          to="/"
          aria-label="Supercurate home"
          className="rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
        >
          <Logo className="size-12" />
        </Link>
        <h1 className="text-3xl font-bold tracking-tight">Supercurate</h1>
      </div>
      <main className="w-full max-w-sm">
        <Outlet />
      </main>
    </div>
  );
}
