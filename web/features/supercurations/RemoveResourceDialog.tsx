import toast from 'react-hot-toast';
import { SUPERCURATION_MESSAGES, type Link } from '../../../shared/domain';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '../../../shared/ui/primitives/alert-dialog';
import { Button } from '../../../shared/ui/primitives/button';
import { DialogFooter, DialogHeader } from '../../../shared/ui/primitives/dialog';
import { useResourceMutations } from './mutations';

interface RemoveResourceDialogProps {
  link: Link;
  supercurationId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** 'Remove Resource': takes the link (and its tags here) out of the collection; the link itself stays. */
export function RemoveResourceDialog({ link, supercurationId, open, onOpenChange }: RemoveResourceDialogProps) {
  const { remove } = useResourceMutations(supercurationId);
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent>
        <DialogHeader className="pr-0">
          <AlertDialogTitle>{SUPERCURATION_MESSAGES.removeResourceTitle}</AlertDialogTitle>
          <AlertDialogDescription>
            Remove “{link.title}” from this supercuration? The link itself is not deleted.
          </AlertDialogDescription>
        </DialogHeader>
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
                  toast.success('Resource removed');
                },
                onError: () => toast.error(SUPERCURATION_MESSAGES.removeResourceFailed),
              })
            }
          >
            {remove.isPending ? 'Removing...' : 'Remove'}
          </Button>
        </DialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
