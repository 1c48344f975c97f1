import type { CreateLinkInput, Link } from '../../../shared/domain';
import { PreviewShareDialog, type ShareFormValues, type SupercurationOption } from '../../../shared/ui/PreviewShareDialog';
import { shareFormValuesOf } from '../../../shared/ui/shareForm';
import { api } from '../../lib/api';
import { useSupercurationOptions } from '../supercurations/options';
import { useCreateTopic, useTopics } from '../topics/useTopics';
import { useCreateLink, useUpdateLink } from './useLinkMutations';

interface DialogState {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** What the shared dialog needs from the web app: the user's topics and collections, uploads and topic creation. */
export function useDialogServices() {
  const topics = useTopics();
  const createTopic = useCreateTopic();
  return {
    topics: topics.data ?? [],
    supercurations: useSupercurationOptions(),
    uploadImage: (file: File) => api.uploadImage(file),
    createTopic: createTopic.mutateAsync,
  };
}

/**
 * Preview & Share for a new link, prefilled from its preview. `share` saves it elsewhere than the
 * feed (into a collection, which then is its only one: no 'Add to Supercurations').
 */
export function ShareNewLinkDialog({
  initialValues,
  onShared,
  share,
  into,
  ...state
}: DialogState & {
  initialValues: Partial<ShareFormValues>;
  onShared: (link: Link) => void;
  share?: (input: CreateLinkInput) => Promise<Link>;
  /** The collection `share` saves into. */
  into?: SupercurationOption;
}) {
  const services = useDialogServices();
  const create = useCreateLink();
  return (
    <PreviewShareDialog
      {...state}
      {...services}
      supercurations={share ? [] : services.supercurations}
      into={into}
      initialValues={initialValues}
      onSubmit={async (input) => onShared(await (share ?? create.mutateAsync)(input))}
    />
  );
}

/**
 * Preview & Share in edit mode ('Update'). 'Add to Supercurations' only for the link's author (the
 * one who may delete it): an editor of one of its collections edits its content, but where it is
 * shown is the author's call (server/policies/links.ts canPlaceLink).
 */
export function EditLinkDialog({ link, ...state }: DialogState & { link: Link }) {
  const services = useDialogServices();
  const update = useUpdateLink(link.id, link.supercurationIds);
  return (
    <PreviewShareDialog
      {...state}
      {...services}
      supercurations={link.canDelete ? services.supercurations : []}
      mode="edit"
      initialValues={shareFormValuesOf(link)}
      onSubmit={update.mutateAsync}
    />
  );
}
