import toast from 'react-hot-toast';
import { SUPERCURATION_MESSAGES, type Link } from '../../../shared/domain';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
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
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={SUPERCURATION_MESSAGES.removeResourceTitle}
      description={<>Remove “{link.title}” from this supercuration? The link itself is not deleted.</>}
      confirmLabel="Remove"
      busyLabel="Removing..."
      busy={remove.isPending}
      onConfirm={() =>
        remove.mutate(link.id, {
          onSuccess: () => {
            onOpenChange(false);
            toast.success('Resource removed');
          },
          onError: () => toast.error(SUPERCURATION_MESSAGES.removeResourceFailed),
        })
      }
    />
  );
}
