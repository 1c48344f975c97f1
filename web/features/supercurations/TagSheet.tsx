import type { TagCategory } from '../../../shared/domain';
import { Sheet, SheetContent, SheetTitle } from '../../../shared/ui/primitives/sheet';
import { TagFilter } from './TagFilter';

interface TagSheetProps {
  categories: TagCategory[];
  value: string | undefined;
  onChange: (tag: string | undefined) => void;
  onClose: () => void;
}

/** 'Filter by tag' as a drawer, for screens too small for the tag column. Open while mounted. */
export function TagSheet({ categories, value, onChange, onClose }: TagSheetProps) {
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent closeLabel="Close tag filter" aria-describedby={undefined} className="overflow-y-auto p-5">
        <SheetTitle className="mb-4 text-lg font-semibold">Filter by tag</SheetTitle>
        <TagFilter categories={categories} value={value} onChange={onChange} layout="column" />
      </SheetContent>
    </Sheet>
  );
}
