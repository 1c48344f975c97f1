import { FolderX } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { Button } from '../../shared/ui/primitives/button';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function PublicSupercurationPage() {
  useDocumentTitle('Supercuration not found');
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <EmptyState level={1} icon={FolderX} title="This supercuration doesn't exist or is private">
        <Button variant="outline" asChild>
          <Link to="/directory">Browse the directory</Link>
        </Button>
      </EmptyState>
    </div>
  );
}
