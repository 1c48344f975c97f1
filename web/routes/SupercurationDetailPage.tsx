import { FolderX } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { Button } from '../../shared/ui/primitives/button';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function SupercurationDetailPage() {
  useDocumentTitle('Supercuration not found');
  return (
    <EmptyState
      level={1}
      icon={FolderX}
      title="Supercuration not found"
      description="It may have been deleted, or you may not have access to it."
    >
      <Button variant="outline" asChild>
        <Link to="/supercurations">Back to your supercurations</Link>
      </Button>
    </EmptyState>
  );
}
