import toast from 'react-hot-toast';
import { LINK_MESSAGES, type Link } from '../../../shared/domain';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
import { messageOf } from '../../lib/api';
import { useDeleteLink } from './useLinkMutations';

/** The Delete Link confirmation of SPEC §2; the card goes away once the server agrees. */
export function DeleteLinkDialog({ link, open, onOpenChange }: { link: Link; open: boolean; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteLink();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        remove.reset();
        onOpenChange(next);
      }}
      title="Delete Link"
      description={LINK_MESSAGES.deleteConfirm}
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={remove.isPending}
      error={remove.error && messageOf(remove.error, 'Failed to delete link')}
      onConfirm={() =>
        remove.mutate(link.id, {
          onSuccess: () => {
            onOpenChange(false);
            toast.success('Link deleted');
          },
        })
      }
    />
  );
}
