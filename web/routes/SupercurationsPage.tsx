import { Layers, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { Button } from '../../shared/ui/primitives/button';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function SupercurationsPage() {
  useDocumentTitle('My Supercurations');
  return (
    <>
      <PageHeader
        title="My Supercurations"
        description="Collections of links you curate, privately or for everyone."
        actions={
          <Button asChild>
            <Link to="/supercurations/new">
              <Plus aria-hidden="true" />
              New Supercuration
            </Link>
          </Button>
        }
      />
      <EmptyState
        icon={Layers}
        title="No supercurations yet"
        description="Create your first supercuration to group links into a collection you can share."
      />
    </>
  );
}
