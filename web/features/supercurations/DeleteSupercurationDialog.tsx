import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import type { Supercuration } from '../../../shared/domain';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
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
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        remove.reset();
        onOpenChange(next);
      }}
      title="Delete Supercuration"
      description={
        <>
          Are you sure you want to delete “{supercuration.title}”? Its links stay in their authors' feeds. This action
          cannot be undone.
        </>
      }
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={remove.isPending}
      error={remove.error && messageOf(remove.error, 'Failed to delete supercuration')}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            toast.success('Supercuration deleted');
            navigate('/supercurations', { replace: true });
          },
        })
      }
    />
  );
}
