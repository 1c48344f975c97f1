import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { LINK_MESSAGES, type Topic } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../shared/ui/primitives/dialog';
import { TopicEditor } from '../../../shared/ui/TopicEditor';
import { Loading } from '../../components/Loading';
import { messageOf } from '../../lib/api';
import { useCreateTopic, useDeleteTopic, useTopics, useUpdateTopic } from '../../../shared/queries/topics';

/** Manage Topics (SPEC §2): add, rename, recolour and delete the user's topics. */
export function ManageTopicsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const topics = useTopics();
  const create = useCreateTopic();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Manage Topics</DialogTitle>
          <DialogDescription>Topics tag your links and filter your feed.</DialogDescription>
        </DialogHeader>
        <section aria-labelledby="new-topic-heading" className="rounded-lg border bg-muted/40 p-4">
          <h3 id="new-topic-heading" className="mb-3 text-sm font-semibold">
            Add a topic
          </h3>
          <TopicEditor
            idPrefix="manage-new-topic"
            submitLabel="Add Topic"
            busyLabel="Adding..."
            clearOnSuccess
            onSubmit={create.mutateAsync}
          />
        </section>
        <section aria-labelledby="your-topics-heading" className="grid gap-2">
          <h3 id="your-topics-heading" className="text-sm font-semibold">
            Your topics{topics.data ? ` (${topics.data.length})` : ''}
          </h3>
          {topics.isPending ? (
            <Loading />
          ) : topics.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {messageOf(topics.error, LINK_MESSAGES.loadTopicsFailed)}
            </p>
          ) : topics.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No topics yet.</p>
          ) : (
            <ul className="divide-y rounded-lg border">
              {topics.data.map((topic) => (
                <TopicRow key={topic.id} topic={topic} />
              ))}
            </ul>
          )}
        </section>
      </DialogContent>
    </Dialog>
  );
}

function TopicRow({ topic }: { topic: Topic }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateTopic();
  const remove = useDeleteTopic();

  if (editing) {
    return (
      <li className="p-3">
        <TopicEditor
          idPrefix={`edit-topic-${topic.id}`}
          initial={{ name: topic.name, color: topic.color }}
          submitLabel="Save"
          busyLabel="Saving..."
          onCancel={() => setEditing(false)}
          onSubmit={async (input) => {
            await update.mutateAsync({ id: topic.id, input });
            setEditing(false);
          }}
        />
      </li>
    );
  }
  return (
    <li className="flex items-center gap-3 px-3 py-2">
      <span aria-hidden="true" className="size-3 shrink-0 rounded-full" style={{ backgroundColor: topic.color }} />
      <span className="min-w-0 flex-1 truncate text-sm font-medium">{topic.name}</span>
      <Button variant="ghost" size="icon" className="size-8" aria-label={`Edit ${topic.name}`} title="Rename or recolour" onClick={() => setEditing(true)}>
        <Pencil aria-hidden="true" />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="size-8 hover:text-destructive"
        aria-label={`Delete ${topic.name}`}
        title="Delete"
        disabled={remove.isPending}
        onClick={() =>
          remove.mutate(topic.id, { onError: (err) => toast.error(messageOf(err, 'Failed to delete topic')) })
        }
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </li>
  );
}
