import type { TagCategory } from '../../../shared/domain';
import { ToggleChip } from '../../../shared/ui/primitives/toggle-chip';
import { TagCategoryGroup, withTags } from './TagCategoryGroup';

interface ResourceTagPickerProps {
  categories: TagCategory[];
  value: string[];
  onChange: (tags: string[]) => void;
}

/** The collection's tags as toggles, grouped by category, for one resource. */
export function ResourceTagPicker({ categories, value, onChange }: ResourceTagPickerProps) {
  const tagged = withTags(categories);
  return (
    <fieldset className="grid min-w-0 gap-3">
      <legend className="mb-2 text-sm font-medium">Supercuration tags</legend>
      {tagged.length === 0 ? (
        <p className="text-sm text-muted-foreground">This supercuration has no tags yet. Add some with Edit Tags.</p>
      ) : (
        tagged.map((category) => (
          <TagCategoryGroup key={category.id} category={category} idPrefix="tag-pick">
            {category.tags.map((tag) => {
                const pressed = value.includes(tag);
                return (
                  <ToggleChip
                    key={tag}
                    pressed={pressed}
                    onClick={() => onChange(pressed ? value.filter((t) => t !== tag) : [...value, tag])}
                    className="h-7 px-2.5 text-xs"
                  >
                    {tag}
                  </ToggleChip>
                );
            })}
          </TagCategoryGroup>
        ))
      )}
    </fieldset>
  );
}
