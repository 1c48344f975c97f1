import { Check, Plus } from 'lucide-react';
import { useState } from 'react';
import type { Topic, TopicInput } from '../domain/links';
import { cn } from './cn';
import { Button } from './primitives/button';
import { TopicEditor } from './TopicEditor';

interface TopicPickerProps {
  labelledBy: string;
  topics: Topic[];
  value: string[];
  onChange: (topicIds: string[]) => void;
  /** Creates a topic ('Add Topic'); the new topic is selected. Rejects with a user-facing Error. */
  createTopic: (input: TopicInput) => Promise<Topic>;
}

/** The user's topics as toggles, and 'Add Topic' to create one inline. */
export function TopicPicker({ labelledBy, topics, value, onChange, createTopic }: TopicPickerProps) {
  const [adding, setAdding] = useState(false);
  const selected = new Set(value);

  function toggle(id: string) {
    onChange(selected.has(id) ? value.filter((v) => v !== id) : [...value, id]);
  }

  return (
    <div className="grid gap-3">
      <div role="group" aria-labelledby={labelledBy} className="flex max-h-40 flex-wrap gap-2 overflow-y-auto p-0.5">
        {topics.map((topic) => {
          const pressed = selected.has(topic.id);
          return (
            <button
              key={topic.id}
              type="button"
              aria-pressed={pressed}
              onClick={() => toggle(topic.id)}
              className={cn(
                'inline-flex h-8 max-w-full items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1',
                pressed ? 'bg-accent' : 'bg-card',
              )}
              style={pressed ? { borderColor: topic.color, boxShadow: `inset 0 0 0 1px ${topic.color}` } : undefined}
            >
              {pressed ? (
                <Check aria-hidden="true" className="size-3.5 shrink-0" style={{ color: topic.color }} />
              ) : (
                <span aria-hidden="true" className="size-2 shrink-0 rounded-full" style={{ backgroundColor: topic.color }} />
              )}
              <span className="truncate">{topic.name}</span>
            </button>
          );
        })}
        {topics.length === 0 && <p className="text-sm text-muted-foreground">No topics yet.</p>}
      </div>
      {adding ? (
        <div className="rounded-lg border bg-muted/40 p-3">
          <TopicEditor
            idPrefix="share-new-topic"
            submitLabel="Add Topic"
            busyLabel="Adding..."
            onCancel={() => setAdding(false)}
            onSubmit={async (input) => {
              const topic = await createTopic(input);
              onChange([...value.filter((v) => v !== topic.id), topic.id]);
              setAdding(false);
            }}
          />
        </div>
      ) : (
        <Button variant="outline" size="sm" className="justify-self-start" onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" />
          Add Topic
        </Button>
      )}
    </div>
  );
}
