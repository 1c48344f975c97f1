import { useQuery } from '@tanstack/react-query';
import { Search, UserMinus, UserPlus } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import {
  COLLABORATOR_SEARCH_LIMIT,
  SUPERCURATION_MESSAGES,
  addedCollaborator,
  type Collaborator,
  type Supercuration,
} from '../../../shared/domain';
import { Avatar } from '../../../shared/ui/primitives/avatar';
import { Button } from '../../../shared/ui/primitives/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../shared/ui/primitives/dialog';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { useDebouncedValue } from '../../../shared/ui/useDebouncedValue';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import { useCurrentUser } from '../../entities/session/currentUser';
import { useCollaboratorMutations } from './mutations';

const SEARCH_DEBOUNCE_MS = 250;

interface ManageCollaboratorsDialogProps {
  supercuration: Supercuration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Manage Collaborators: the owner and the collaborators; a search by name (from 1 character, at most
 * COLLABORATOR_SEARCH_LIMIT results) to add one. The owner removes anyone; a collaborator may leave.
 */
export function ManageCollaboratorsDialog({ supercuration: s, open, onOpenChange }: ManageCollaboratorsDialogProps) {
  const me = useCurrentUser();
  const [query, setQuery] = useState('');
  const q = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  const { add, remove } = useCollaboratorMutations(s.id);
  const candidates = useQuery({
    queryKey: [...queryKeys.collaboratorSearch(s.id), q],
    queryFn: ({ signal }) => api.searchCollaborators(s.id, q, signal),
    enabled: open && q.length >= 1,
  });
  const results = (candidates.data ?? []).slice(0, COLLABORATOR_SEARCH_LIMIT);

  function addOne(user: Collaborator) {
    add.mutate(user.id, {
      onSuccess: () => toast.success(addedCollaborator(user.name)),
      onError: () => toast.error(SUPERCURATION_MESSAGES.addCollaboratorFailed),
    });
  }

  function removeOne(user: Collaborator) {
    remove.mutate(user.id, {
      onSuccess: () => toast.success(SUPERCURATION_MESSAGES.removedCollaborator),
      onError: () => toast.error(SUPERCURATION_MESSAGES.removeCollaboratorFailed),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Manage Collaborators</DialogTitle>
          <DialogDescription>Collaborators can edit this supercuration, its tags and its resources.</DialogDescription>
        </DialogHeader>

        <section aria-labelledby="collaborators-heading" className="grid gap-2">
          <h3 id="collaborators-heading" className="text-sm font-semibold">
            People with access
          </h3>
          <ul className="divide-y rounded-lg border">
            <PersonRow person={s.user} note="Owner" />
            {s.collaborators.map((c) => (
              <PersonRow key={c.id} person={c} note="Collaborator">
                {(s.isOwner || c.id === me.id) && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="hover:text-destructive"
                    aria-label={`Remove ${c.name}`}
                    disabled={remove.isPending}
                    onClick={() => removeOne(c)}
                  >
                    <UserMinus aria-hidden="true" />
                    Remove
                  </Button>
                )}
              </PersonRow>
            ))}
          </ul>
        </section>

        <section aria-labelledby="add-collaborator-heading" className="grid gap-2">
          <h3 id="add-collaborator-heading" className="text-sm font-semibold">
            Add a collaborator
          </h3>
          <Label htmlFor="collaborator-search" className="sr-only">
            Search users by name
          </Label>
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              id="collaborator-search"
              type="search"
              placeholder="Search users by name..."
              className="pl-9"
              autoComplete="off"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div aria-live="polite">
            {q.length === 0 ? null : candidates.isPending ? (
              <p className="py-3 text-sm text-muted-foreground">Searching...</p>
            ) : candidates.isError ? (
              <p role="alert" className="py-3 text-sm text-destructive">
                Failed to search users
              </p>
            ) : results.length === 0 ? (
              <p className="py-3 text-sm text-muted-foreground">No users found</p>
            ) : (
              <ul aria-label="Search results" className="divide-y rounded-lg border">
                {results.map((user) => (
                  <PersonRow key={user.id} person={user}>
                    <Button
                      variant="outline"
                      size="sm"
                      aria-label={`Add ${user.name}`}
                      disabled={add.isPending}
                      onClick={() => addOne(user)}
                    >
                      <UserPlus aria-hidden="true" />
                      Add
                    </Button>
                  </PersonRow>
                ))}
              </ul>
            )}
          </div>
        </section>
      </DialogContent>
    </Dialog>
  );
}

function PersonRow({ person, note, children }: { person: Collaborator; note?: string; children?: ReactNode }) {
  return (
    <li className="flex items-center gap-3 px-3 py-2">
      <Avatar src={person.avatarUrl} className="size-8" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{person.name}</p>
        {note && <p className="text-xs text-muted-foreground">{note}</p>}
      </div>
      {children}
    </li>
  );
}
