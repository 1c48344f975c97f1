import { Link2, Repeat2 } from 'lucide-react';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** /home and /saved. */
export function FeedPage() {
  useDocumentTitle('My Feed');
  return (
    <>
      <PageHeader title="My Feed" description="The links you share and repost." />
      <Tabs defaultValue="shared">
        <TabsList aria-label="Feed">
          <TabsTrigger value="shared">Shared by me</TabsTrigger>
          <TabsTrigger value="reposts">My Reposts</TabsTrigger>
        </TabsList>
        <TabsContent value="shared">
          <EmptyState
            icon={Link2}
            title="You haven't shared any links yet"
            description="Links you share will appear here."
          />
        </TabsContent>
        <TabsContent value="reposts">
          <EmptyState
            icon={Repeat2}
            title="No reposts yet"
            description="Links you repost from other curators will appear here."
          />
        </TabsContent>
      </Tabs>
    </>
  );
}
