import type { Link } from '../../../shared/domain';
import { PreviewShareDialog, type ShareFormValues } from '../../../shared/ui/PreviewShareDialog';
import { api } from '../../lib/api';
import { useCreateTopic, useTopics } from '../topics/useTopics';
import { useCreateLink, useUpdateLink } from './useLinkMutations';

interface DialogState {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** What the shared dialog needs from the web app: the user's topics, uploads and topic creation. */
function useDialogServices() {
  const topics = useTopics();
  const createTopic = useCreateTopic();
  return {
    topics: topics.data ?? [],
    uploadImage: (file: File) => api.uploadImage(file),
    createTopic: createTopic.mutateAsync,
  };
}

/** Preview & Share for a new link, prefilled from its preview. */
export function ShareNewLinkDialog({
  initialValues,
  onShared,
  ...state
}: DialogState & { initialValues: Partial<ShareFormValues>; onShared: (link: Link) => void }) {
  const services = useDialogServices();
  const create = useCreateLink();
  return (
    <PreviewShareDialog
      {...state}
      {...services}
      initialValues={initialValues}
      onSubmit={async (input) => onShared(await create.mutateAsync(input))}
    />
  );
}

/** Preview & Share in edit mode ('Update'). */
export function EditLinkDialog({ link, ...state }: DialogState & { link: Link }) {
  const services = useDialogServices();
  const update = useUpdateLink(link.id);
  return (
    <PreviewShareDialog
      {...state}
      {...services}
      mode="edit"
      initialValues={{
        url: link.url ?? '',
        title: link.title,
        description: link.description,
        linkText: link.linkText,
        thumbnailUrl: link.thumbnailUrl ?? '',
        isOriginalContent: link.isOriginalContent,
        format: link.format,
        topicIds: link.topicIds,
        supercurationIds: link.supercurationIds,
      }}
      onSubmit={update.mutateAsync}
    />
  );
}
