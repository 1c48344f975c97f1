import { CircleAlert } from 'lucide-react';
import { EmptyState } from '../components/EmptyState';
import { Button } from '../../shared/ui/primitives/button';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** Shown when a page crashes while rendering. */
export function ErrorPage() {
  useDocumentTitle('Something went wrong');
  return (
    <main className="flex min-h-dvh items-center justify-center p-4">
      <EmptyState
        level={1}
        icon={CircleAlert}
        title="Something went wrong"
        description="An unexpected error occurred. Reload the page to try again."
        className="w-full max-w-md"
      >
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <Button variant="outline" asChild>
          <a href="/">Return to home</a>
        </Button>
      </EmptyState>
    </main>
  );
}
