import { Plus, Search, X } from 'lucide-react';
import { useState } from 'react';
import { DEFAULT_TOPIC_COLOR, type Topic } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Input } from '../../../shared/ui/primitives/input';
import { Popover, PopoverContent, PopoverTrigger } from '../../../shared/ui/primitives/popover';
import { TopicChip } from '../../../shared/ui/TopicChip';

interface TopicFilterProps {
  topics: Topic[];
  /** The topic id filtered on (one at a time). */
  value: string | undefined;
  onChange: (topicId: string | undefined) => void;
}

/**
 * 'Filter by Topic': the chosen topic (removable), or 'Add Filter' with a searchable list of the
 * user's topics. The feed filters on one topic at a time.
 */
export function TopicFilter({ topics, value, onChange }: TopicFilterProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const chosen = value ? topics.find((t) => t.id === value) : undefined;
  const needle = query.trim().toLowerCase();
  const matches = topics.filter((t) => t.name.toLowerCase().includes(needle));

  function pick(id: string) {
    onChange(id);
    setOpen(false);
    setQuery('');
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <span id="topic-filter-label" className="text-sm font-medium text-muted-foreground">
        Filter by Topic
      </span>
      {value && (
        <TopicChip name={chosen?.name ?? `#${value}`} color={chosen?.color ?? DEFAULT_TOPIC_COLOR} className="py-1 pr-1 text-sm">
          <button
            type="button"
            aria-label={`Remove filter ${chosen?.name ?? value}`}
            onClick={() => onChange(undefined)}
            className="rounded-full p-0.5 text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X aria-hidden="true" className="size-3.5" />
          </button>
        </TopicChip>
      )}
      {!value && (
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button variant="outline" size="sm" aria-describedby="topic-filter-label">
            <Plus aria-hidden="true" />
            Add Filter
          </Button>
        </PopoverTrigger>
        <PopoverContent aria-label="Topics">
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              aria-label="Search topics"
              placeholder="Search topics..."
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && matches[0]) {
                  e.preventDefault();
                  pick(matches[0].id);
                }
              }}
              className="h-9 pl-8"
            />
          </div>
          {matches.length === 0 ? (
            <p className="px-2 py-6 text-center text-sm text-muted-foreground">No topics found</p>
          ) : (
            <ul className="mt-2 max-h-64 overflow-y-auto">
              {matches.map((topic) => (
                <li key={topic.id}>
                  <button
                    type="button"
                    aria-pressed={topic.id === value}
                    onClick={() => pick(topic.id)}
                    className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm outline-none hover:bg-muted focus-visible:bg-muted aria-pressed:font-semibold"
                  >
                    <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: topic.color }} />
                    <span className="truncate">{topic.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </PopoverContent>
      </Popover>
      )}
    </div>
  );
}
