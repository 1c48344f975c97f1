import { type RouteObject, matchRoutes } from 'react-router';
import { PublicLayout } from './layouts/PublicLayout';
import { ErrorPage } from './routes/ErrorPage';

/**
 * The route table of SPEC §2. Each page (and the signed-in and sign-in layouts) is a chunk of its
 * own, loaded when a route needs it: a visitor's first load carries only the page it opens, not
 * the editors, dialogs, import and OCR code of the signed-in app. scripts/bundle-budget.mjs
 * checks what each public page's first load weighs.
 */
export const routes: RouteObject[] = [
  {
    errorElement: <ErrorPage />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/', lazy: () => import('./routes/LandingPage').then((m) => ({ Component: m.LandingPage })) },
          { path: '/directory', lazy: () => import('./routes/DirectoryPage').then((m) => ({ Component: m.DirectoryPage })) },
          {
            path: '/supercurations/public/:slug',
            lazy: () => import('./routes/PublicSupercurationPage').then((m) => ({ Component: m.PublicSupercurationPage })),
          },
          { path: '/links/:id', lazy: () => import('./routes/LinkDetailPage').then((m) => ({ Component: m.LinkDetailPage })) },
          { path: '/s/:slug', lazy: () => import('./routes/ShortLinkRedirect').then((m) => ({ Component: m.ShortLinkRedirect })) },
          { path: '/email-verified', lazy: () => import('./routes/EmailVerifiedPage').then((m) => ({ Component: m.EmailVerifiedPage })) },
          { path: '*', lazy: () => import('./routes/NotFoundPage').then((m) => ({ Component: m.NotFoundPage })) },
        ],
      },
      {
        lazy: () => import('./layouts/AuthLayout').then((m) => ({ Component: m.AuthLayout })),
        children: [
          { path: '/login', lazy: () => import('./routes/LoginPage').then((m) => ({ Component: m.LoginPage })) },
          { path: '/register', lazy: () => import('./routes/RegisterPage').then((m) => ({ Component: m.RegisterPage })) },
          { path: '/forgot-password', lazy: () => import('./routes/ForgotPasswordPage').then((m) => ({ Component: m.ForgotPasswordPage })) },
          { path: '/reset-password', lazy: () => import('./routes/ResetPasswordPage').then((m) => ({ Component: m.ResetPasswordPage })) },
        ],
      },
      {
        // A profile is open to visitors too: in the app for a signed-in user.
        lazy: () => import('./layouts/SessionLayout').then((m) => ({ Component: m.SessionLayout })),
        children: [{ path: '/profile/:id', lazy: () => import('./routes/ProfilePage').then((m) => ({ Component: m.ProfilePage })) }],
      },
      {
        lazy: () => import('./layouts/ProtectedLayout').then((m) => ({ Component: m.ProtectedLayout })),
        children: [
          { path: '/home', lazy: () => import('./routes/FeedPage').then((m) => ({ Component: m.FeedPage })) },
          { path: '/saved', lazy: () => import('./routes/FeedPage').then((m) => ({ Component: m.FeedPage })) },
          { path: '/following', lazy: () => import('./routes/FollowingPage').then((m) => ({ Component: m.FollowingPage })) },
          { path: '/search', lazy: () => import('./routes/SearchPage').then((m) => ({ Component: m.SearchPage })) },
          { path: '/dashboard', lazy: () => import('./routes/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
          {
            path: '/supercurations',
            lazy: () => import('./routes/SupercurationsPage').then((m) => ({ Component: m.SupercurationsPage })),
          },
          {
            path: '/supercurations/new',
            lazy: () => import('./routes/NewSupercurationPage').then((m) => ({ Component: m.NewSupercurationPage })),
          },
          {
            path: '/supercurations/:id',
            lazy: () => import('./routes/SupercurationDetailPage').then((m) => ({ Component: m.SupercurationDetailPage })),
          },
          { path: '/links/:id/read', lazy: () => import('./routes/ReaderPage').then((m) => ({ Component: m.ReaderPage })) },
          { path: '/settings', lazy: () => import('./routes/SettingsPage').then((m) => ({ Component: m.SettingsPage })) },
          { path: '/share-target', lazy: () => import('./routes/ShareTargetPage').then((m) => ({ Component: m.ShareTargetPage })) },
        ],
      },
    ],
  },
];

/**
 * Loads the lazy routes a location matches, before the router is made: a page the server rendered
 * is then hydrated at once, with the same tree, instead of through the router's loading state.
 */
export async function loadRoutesOf(location: string): Promise<void> {
  const lazyMatches = matchRoutes(routes, location)?.filter((m) => m.route.lazy) ?? [];
  await Promise.all(
    lazyMatches.map(async ({ route }) => {
      const loaded = await (route.lazy as () => Promise<Partial<RouteObject>>)();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}
