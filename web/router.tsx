import { createBrowserRouter } from 'react-router';
import { AuthLayout } from './layouts/AuthLayout';
import { ProtectedLayout } from './layouts/ProtectedLayout';
import { PublicLayout } from './layouts/PublicLayout';
import { DashboardPage } from './routes/DashboardPage';
import { DirectoryPage } from './routes/DirectoryPage';
import { EmailVerifiedPage } from './routes/EmailVerifiedPage';
import { ErrorPage } from './routes/ErrorPage';
import { FeedPage } from './routes/FeedPage';
import { ForgotPasswordPage } from './routes/ForgotPasswordPage';
import { LandingPage } from './routes/LandingPage';
import { LinkDetailPage } from './routes/LinkDetailPage';
import { LoginPage } from './routes/LoginPage';
import { NewSupercurationPage } from './routes/NewSupercurationPage';
import { NotFoundPage } from './routes/NotFoundPage';
import { ProfilePage } from './routes/ProfilePage';
import { PublicSupercurationPage } from './routes/PublicSupercurationPage';
import { RegisterPage } from './routes/RegisterPage';
import { ResetPasswordPage } from './routes/ResetPasswordPage';
import { SettingsPage } from './routes/SettingsPage';
import { ShortLinkRedirect } from './routes/ShortLinkRedirect';
import { SupercurationDetailPage } from './routes/SupercurationDetailPage';
import { SupercurationsPage } from './routes/SupercurationsPage';

/** The route table of SPEC §2. */
export const router = createBrowserRouter([
  {
    errorElement: <ErrorPage />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/', element: <LandingPage /> },
          { path: '/directory', element: <DirectoryPage /> },
          { path: '/supercurations/public/:slug', element: <PublicSupercurationPage /> },
          { path: '/links/:id', element: <LinkDetailPage /> },
          { path: '/s/:slug', element: <ShortLinkRedirect /> },
          { path: '/email-verified', element: <EmailVerifiedPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <AuthLayout />,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/register', element: <RegisterPage /> },
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/reset-password', element: <ResetPasswordPage /> },
        ],
      },
      {
        element: <ProtectedLayout />,
        children: [
          { path: '/home', element: <FeedPage /> },
          { path: '/saved', element: <FeedPage /> },
          { path: '/dashboard', element: <DashboardPage /> },
          { path: '/supercurations', element: <SupercurationsPage /> },
          { path: '/supercurations/new', element: <NewSupercurationPage /> },
          { path: '/supercurations/:id', element: <SupercurationDetailPage /> },
          { path: '/profile/:id', element: <ProfilePage /> },
          { path: '/settings', element: <SettingsPage /> },
        ],
      },
    ],
  },
]);
