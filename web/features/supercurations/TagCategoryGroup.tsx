import type { ReactNode } from 'react';
import type { TagCategory } from '../../../shared/domain';

/** A tag category's name (with its colour) over its tag chips; a labelled group. */
export function TagCategoryGroup({ category, idPrefix, children }: { category: TagCategory; idPrefix: string; children: ReactNode }) {
  const labelId = `${idPrefix}-${category.id}`;
  return (
    <div role="group" aria-labelledby={labelId} className="grid gap-1.5">
      <span id={labelId} className="flex items-center gap-1.5 text-xs font-semibold text-muted-foreground">
        <span aria-hidden="true" className="size-2 rounded-full" style={{ backgroundColor: category.color }} />
        {category.name}
      </span>
      <div className="flex flex-wrap gap-1.5">{children}</div>
    </div>
  );
}

/** Categories that have at least one tag. */
export const withTags = (categories: TagCategory[]) => categories.filter((c) => c.tags.length > 0);
