import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import type { Supercuration } from '../../../shared/domain';
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
import { useDeleteSupercuration } from './mutations';

interface DeleteSupercurationDialogProps {
  supercuration: Supercuration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** 'Delete Supercuration' after confirmation; back to My Supercurations. The links themselves stay. */
export function DeleteSupercurationDialog({ supercuration, open, onOpenChange }: DeleteSupercurationDialogProps) {
  const remove = useDeleteSupercuration(supercuration.id);
  const navigate = useNavigate();
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
          <AlertDialogTitle>Delete Supercuration</AlertDialogTitle>
          <AlertDialogDescription>
            Are you sure you want to delete “{supercuration.title}”? Its links stay in their authors' feeds. This action
            cannot be undone.
          </AlertDialogDescription>
        </DialogHeader>
        <FormError message={remove.error && messageOf(remove.error, 'Failed to delete supercuration')} />
        <DialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">Cancel</Button>
          </AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => {
                  toast.success('Supercuration deleted');
                  navigate('/supercurations', { replace: true });
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
