import { CircleHelp } from 'lucide-react';
import { Link } from 'react-router';
import { MSG } from '../../shared/domain';
import { EmptyState } from '../components/EmptyState';
import { Button } from '../../shared/ui/primitives/button';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function NotFoundPage() {
  useDocumentTitle(MSG.pageNotFound);
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <EmptyState
        level={1}
        icon={CircleHelp}
        title={MSG.pageNotFound}
        description="The page you are looking for doesn't exist or has moved."
      >
        <Button asChild>
          <Link to="/">Return to home</Link>
        </Button>
      </EmptyState>
    </div>
  );
}
