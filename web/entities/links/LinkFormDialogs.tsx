import type { CreateLinkInput, Link } from '../../../shared/domain';
import { PreviewShareDialog, type ShareFormValues, type SupercurationOption } from '../../../shared/ui/PreviewShareDialog';
import { shareFormValuesOf } from '../../../shared/ui/shareForm';
import { useShareFormServices } from '../../../shared/queries/share-form';
import { useCreateLink, useUpdateLink } from './useLinkMutations';

interface DialogState {
  open: boolean;
  onOpenChange: (open: boolean) => void;
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
  const services = useShareFormServices();
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
  const services = useShareFormServices();
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
