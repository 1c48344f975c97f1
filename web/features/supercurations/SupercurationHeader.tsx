import { ArrowLeft, Pencil, Tags, Trash2, Users } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Supercuration } from '../../../shared/domain';
import { Avatar } from '../../../shared/ui/primitives/avatar';
import { Button } from '../../../shared/ui/primitives/button';
import { TopicChip } from '../../../shared/ui/TopicChip';
import { DeleteSupercurationDialog } from './DeleteSupercurationDialog';
import { EditDetailsDialog } from './EditDetailsDialog';
import { EditTagsDialog } from './EditTagsDialog';
import { ManageCollaboratorsDialog } from './ManageCollaboratorsDialog';
import { PublicUrl } from './PublicUrl';
import { VisibilityBadge } from './VisibilityBadge';
import { paths } from '../../../shared/domain/paths';

type DialogName = 'details' | 'tags' | 'collaborators' | 'delete';

/** Title, visibility, description, topics, curators, public URL, and the editors' actions. */
export function SupercurationHeader({ supercuration: s }: { supercuration: Supercuration }) {
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const closeDialog = (open: boolean) => !open && setDialog(null);

  return (
    <header className="mb-8 grid gap-5">
      <Link
        to="/supercurations"
        className="inline-flex items-center gap-1.5 justify-self-start rounded-sm text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        My Supercurations
      </Link>
      <div className="grid gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-bold tracking-tight break-words sm:text-3xl">{s.title}</h1>
          <VisibilityBadge isPublic={s.isPublic} />
        </div>
        {s.description && <p className="max-w-3xl break-words whitespace-pre-line text-muted-foreground">{s.description}</p>}
        {s.topicDetails.length > 0 && (
          <ul aria-label="Topics" className="flex flex-wrap gap-1.5">
            {s.topicDetails.map((t) => (
              <li key={t.id}>
                <TopicChip name={t.name} color={t.color} />
              </li>
            ))}
          </ul>
        )}
        <Curators supercuration={s} />
      </div>
      {s.isPublic && s.slug && <PublicUrl slug={s.slug} />}
      {s.canEdit && (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setDialog('details')}>
            <Pencil aria-hidden="true" />
            Edit details
          </Button>
          <Button variant="outline" onClick={() => setDialog('tags')}>
            <Tags aria-hidden="true" />
            Edit Tags
          </Button>
          <Button variant="outline" onClick={() => setDialog('collaborators')}>
            <Users aria-hidden="true" />
            Manage Collaborators
          </Button>
          {s.isOwner && (
            <Button variant="outline" className="text-destructive hover:bg-destructive/5" onClick={() => setDialog('delete')}>
              <Trash2 aria-hidden="true" />
              Delete Supercuration
            </Button>
          )}
        </div>
      )}
      {dialog === 'details' && <EditDetailsDialog supercuration={s} open onOpenChange={closeDialog} />}
      <EditTagsDialog supercuration={s} open={dialog === 'tags'} onOpenChange={closeDialog} />
      {dialog === 'collaborators' && <ManageCollaboratorsDialog supercuration={s} open onOpenChange={closeDialog} />}
      <DeleteSupercurationDialog supercuration={s} open={dialog === 'delete'} onOpenChange={closeDialog} />
    </header>
  );
}

/** 'Curated by' the owner, and the collaborators. */
function Curators({ supercuration: s }: { supercuration: Supercuration }) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-muted-foreground">
      <span className="flex items-center gap-2">
        <Avatar src={s.user.avatarUrl} className="size-6" />
        <span>
          Curated by{' '}
          <Link to={paths.profile(s.user.id)} className="font-medium text-foreground underline-offset-4 hover:underline">
            {s.user.name}
          </Link>
        </span>
      </span>
      {s.collaborators.length > 0 && (
        <span className="flex items-center gap-2">
          <span className="flex -space-x-2">
            {s.collaborators.slice(0, 5).map((c) => (
              <Avatar key={c.id} src={c.avatarUrl} className="size-6 ring-2 ring-background" />
            ))}
          </span>
          <span>
            with {s.collaborators.map((c) => c.name).join(', ')}
          </span>
        </span>
      )}
    </div>
  );
}
