import { Users } from 'lucide-react';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { useCurrentUser } from '../layouts/ProtectedLayout';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function DashboardPage() {
  useDocumentTitle('Subscriber Dashboard');
  const count = useCurrentUser().subscribersCount;
  return (
    <>
      <PageHeader title="Subscriber Dashboard" description="The people who subscribed to your updates." />
      <p className="mb-6 text-lg font-semibold">
        {count} {count === 1 ? 'Subscriber' : 'Subscribers'}
      </p>
      {count === 0 && (
        <EmptyState
          icon={Users}
          title="No subscribers yet"
          description="When people subscribe to you, they will be listed here."
        />
      )}
    </>
  );
}
