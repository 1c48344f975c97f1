import toast from 'react-hot-toast';
import type { Supercuration } from '../../../shared/domain';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../shared/ui/primitives/dialog';
import { useUpdateSupercuration } from './mutations';
import { SupercurationForm } from './SupercurationForm';

interface EditDetailsDialogProps {
  supercuration: Supercuration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** Title, description, visibility, URL and (for the owner, whose topics they are) topics. */
export function EditDetailsDialog({ supercuration: s, open, onOpenChange }: EditDetailsDialogProps) {
  const update = useUpdateSupercuration(s.id);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>Edit details</DialogTitle>
          <DialogDescription>Change how this supercuration is presented and who can see it.</DialogDescription>
        </DialogHeader>
        <SupercurationForm
          initial={{ title: s.title, description: s.description, isPublic: s.isPublic, slug: s.slug, topics: s.topics }}
          withTopics={s.isOwner}
          submitLabel="Save changes"
          busyLabel="Saving..."
          failureMessage="Failed to update supercuration"
          onCancel={() => onOpenChange(false)}
          onSubmit={async (values) => {
            await update.mutateAsync(values);
            toast.success('Supercuration updated');
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
