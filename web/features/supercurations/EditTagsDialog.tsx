import { Plus, Tags } from 'lucide-react';
import toast from 'react-hot-toast';
import type { Supercuration } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../shared/ui/primitives/dialog';
import { messageOf } from '../../lib/api';
import { TagCategoryEditor } from './TagCategoryEditor';
import { useTagMutations } from './mutations';

interface EditTagsDialogProps {
  supercuration: Supercuration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Edit Tags: the collection's tag categories (add, rename, recolour, delete) and their tags. */
export function EditTagsDialog({ supercuration, open, onOpenChange }: EditTagsDialogProps) {
  const { createCategory } = useTagMutations(supercuration.id);
  const categories = supercuration.tagCategories;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit Tags</DialogTitle>
          <DialogDescription>Group tags into categories. Tag resources with them, and visitors filter by them.</DialogDescription>
        </DialogHeader>
        {categories.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center text-sm text-muted-foreground">
            <Tags aria-hidden="true" className="size-6" />
            No tag categories yet.
          </div>
        ) : (
          <ul className="grid gap-4">
            {categories.map((category) => (
              <TagCategoryEditor key={category.id} supercurationId={supercuration.id} category={category} />
            ))}
          </ul>
        )}
        <Button
          variant="outline"
          className="justify-self-start"
          disabled={createCategory.isPending}
          onClick={() =>
            createCategory.mutate(undefined, {
              onError: (err) => toast.error(messageOf(err, 'Failed to add tag category')),
            })
          }
        >
          <Plus aria-hidden="true" />
          {createCategory.isPending ? 'Adding...' : 'Add Category'}
        </Button>
      </DialogContent>
    </Dialog>
  );
}
