import type { TagCategory } from '../../../shared/domain';
import { TopicChip } from '../../../shared/ui/TopicChip';

/** A resource's tags in this collection, each in its category's colour. */
export function ResourceTagChips({ tags, categories }: { tags: string[]; categories: TagCategory[] }) {
  if (tags.length === 0) return null;
  const colorOf = (tag: string) => categories.find((c) => c.tags.includes(tag))?.color ?? '#475569';
  return (
    <ul aria-label="Collection tags" className="flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li key={tag} className="max-w-full">
          <TopicChip name={tag} color={colorOf(tag)} className="bg-muted/60" />
        </li>
      ))}
    </ul>
  );
}
