import { Trash2, X } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { SUPERCURATION_MESSAGES, TAG_CATEGORY_NAME_MAX_LENGTH, TAG_NAME_MAX_LENGTH, type TagCategory } from '../../../shared/domain';
import { ColorPalette } from '../../../shared/ui/ColorPalette';
import { Button } from '../../../shared/ui/primitives/button';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { TopicChip } from '../../../shared/ui/TopicChip';
import { messageOf } from '../../lib/api';
import { useTagMutations } from './mutations';

/** One category of Edit Tags: its name (saved on blur or Enter), colour, tags, and delete. */
export function TagCategoryEditor({ supercurationId, category }: { supercurationId: string; category: TagCategory }) {
  const { updateCategory, deleteCategory, addTag, removeTag } = useTagMutations(supercurationId);
  const [name, setName] = useState(category.name);
  const [newTag, setNewTag] = useState('');
  const [error, setError] = useState<string | null>(null);
  const prefix = `category-${category.id}`;
  const fail = (fallback: string) => (err: unknown) => setError(messageOf(err, fallback));

  function saveName() {
    const trimmed = name.trim();
    if (!trimmed) {
      setError(SUPERCURATION_MESSAGES.categoryNameRequired);
      return;
    }
    setError(null);
    if (trimmed === category.name) return;
    updateCategory.mutate(
      { categoryId: category.id, input: { name: trimmed } },
      { onSuccess: (saved) => setName(saved.name), onError: fail('Failed to update tag category') },
    );
  }

  function submitTag() {
    const trimmed = newTag.trim();
    if (!trimmed) {
      setError(SUPERCURATION_MESSAGES.tagNameRequired);
      return;
    }
    setError(null);
    addTag.mutate(
      { categoryId: category.id, name: trimmed },
      { onSuccess: () => setNewTag(''), onError: fail('Failed to add tag') },
    );
  }

  const onEnter = (action: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      action();
    }
  };

  return (
    <li aria-label={`Category ${category.name}`} className="grid gap-4 rounded-lg border p-4">
      <div className="flex items-end gap-2">
        <div className="grid min-w-0 flex-1 gap-2">
          <Label htmlFor={`${prefix}-name`}>Category name</Label>
          <Input
            id={`${prefix}-name`}
            value={name}
            maxLength={TAG_CATEGORY_NAME_MAX_LENGTH}
            onChange={(e) => setName(e.target.value)}
            onBlur={saveName}
            onKeyDown={onEnter(saveName)}
            autoComplete="off"
          />
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="hover:text-destructive"
          aria-label={`Delete category ${category.name}`}
          title="Delete category"
          disabled={deleteCategory.isPending}
          onClick={() => deleteCategory.mutate(category.id, { onError: fail('Failed to delete tag category') })}
        >
          <Trash2 aria-hidden="true" />
        </Button>
      </div>
      <ColorPalette
        name={`${prefix}-color`}
        value={category.color}
        onChange={(color) =>
          updateCategory.mutate({ categoryId: category.id, input: { color } }, { onError: fail('Failed to update tag category') })
        }
      />
      <div className="grid gap-2">
        <span id={`${prefix}-tags`} className="text-sm font-medium">
          Tags
        </span>
        {category.tags.length === 0 ? (
          <p className="text-sm text-muted-foreground">No tags yet.</p>
        ) : (
          <ul aria-labelledby={`${prefix}-tags`} className="flex flex-wrap gap-1.5">
            {category.tags.map((tag) => (
              <li key={tag} className="max-w-full">
                <TopicChip name={tag} color={category.color} className="py-1 pr-1 text-sm">
                  <button
                    type="button"
                    aria-label={`Remove tag ${tag}`}
                    disabled={removeTag.isPending}
                    onClick={() =>
                      removeTag.mutate({ categoryId: category.id, name: tag }, { onError: fail('Failed to remove tag') })
                    }
                    className="rounded-full p-0.5 text-muted-foreground outline-none hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                </TopicChip>
              </li>
            ))}
          </ul>
        )}
        <div className="flex gap-2">
          <Input
            aria-label={`New tag in ${category.name}`}
            placeholder="New tag"
            value={newTag}
            maxLength={TAG_NAME_MAX_LENGTH}
            onChange={(e) => setNewTag(e.target.value)}
            onKeyDown={onEnter(submitTag)}
            autoComplete="off"
          />
          <Button variant="outline" onClick={submitTag} disabled={addTag.isPending}>
            {addTag.isPending ? 'Adding...' : 'Add tag'}
          </Button>
        </div>
      </div>
      <FormError message={error} />
    </li>
  );
}
