import { useId } from 'react';
import type { TagCategory } from '../../../shared/domain';
import { cn } from '../../../shared/ui/cn';
import { ToggleChip } from '../../../shared/ui/primitives/toggle-chip';
import { TagCategoryGroup, withTags } from './TagCategoryGroup';

interface TagFilterProps {
  categories: TagCategory[];
  /** The tag name filtered on (one at a time). */
  value: string | undefined;
  onChange: (tag: string | undefined) => void;
  /** 'row': categories side by side (detail page); 'column': stacked (sidebar, drawer). */
  layout?: 'row' | 'column';
}

/** The collection's tags as chips, grouped by category, and 'All tags'. Renders nothing without tags. */
export function TagFilter({ categories, value, onChange, layout = 'row' }: TagFilterProps) {
  const idPrefix = useId();
  const tagged = withTags(categories);
  if (tagged.length === 0) return null;
  return (
    <div role="group" aria-label="Filter by tag" className={cn('grid gap-3', layout === 'row' && 'sm:flex sm:flex-wrap sm:items-start sm:gap-x-6')}>
      <ToggleChip pressed={!value} onClick={() => onChange(undefined)} className="justify-self-start">
        All tags
      </ToggleChip>
      {tagged.map((category) => (
        <TagCategoryGroup key={category.id} category={category} idPrefix={idPrefix}>
          {category.tags.map((tag) => (
            <ToggleChip
              key={tag}
              pressed={value === tag}
              onClick={() => onChange(value === tag ? undefined : tag)}
              className="h-7 px-2.5 text-xs"
            >
            {tag}
            </ToggleChip>
          ))}
        </TagCategoryGroup>
      ))}
    </div>
  );
}
