import { Link2Off } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { Button } from '../components/ui/button';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function LinkDetailPage() {
  useDocumentTitle('Link not found');
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <EmptyState level={1} icon={Link2Off} title="Link not found" description="It may have been deleted.">
        <Button variant="outline" asChild>
          <Link to="/home">Return to Home</Link>
        </Button>
      </EmptyState>
    </div>
  );
}
