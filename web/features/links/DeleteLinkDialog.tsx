import toast from 'react-hot-toast';
import { LINK_MESSAGES, type Link } from '../../../shared/domain';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '../../../shared/ui/primitives/alert-dialog';
import { Button } from '../../../shared/ui/primitives/button';
import { DialogFooter, DialogHeader } from '../../../shared/ui/primitives/dialog';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { messageOf } from '../../lib/api';
import { useDeleteLink } from './useLinkMutations';

/** The Delete Link confirmation of SPEC §2; the card goes away once the server agrees. */
export function DeleteLinkDialog({ link, open, onOpenChange }: { link: Link; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteLink();
  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        remove.reset();
        onOpenChange(next);
      }}
    >
      <AlertDialogContent>
        <DialogHeader className="pr-0">
          <AlertDialogTitle>Delete Link</AlertDialogTitle>
          <AlertDialogDescription>{LINK_MESSAGES.deleteConfirm}</AlertDialogDescription>
        </DialogHeader>
        <FormError message={remove.error && messageOf(remove.error, 'Failed to delete link')} />
        <DialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">Cancel</Button>
          </AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(link.id, {
                onSuccess: () => {
                  onOpenChange(false);
                  toast.success('Link deleted');
                },
              })
            }
          >
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </DialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
