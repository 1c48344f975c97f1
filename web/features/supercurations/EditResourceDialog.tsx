import { useState } from 'react';
import toast from 'react-hot-toast';
import { SUPERCURATION_MESSAGES, type Link, type Supercuration } from '../../../shared/domain';
import { PreviewShareDialog } from '../../../shared/ui/PreviewShareDialog';
import { messageOf } from '../../lib/api';
import { shareFormValuesOf } from '../../../shared/ui/shareForm';
import { useShareFormServices } from '../../../shared/queries/share-form';
import { useUpdateLink } from '../../entities/links/useLinkMutations';
import { useResourceMutations } from './mutations';
import { ResourceTagPicker } from './ResourceTagPicker';

interface EditResourceDialogProps {
  link: Link;
  supercuration: Supercuration;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * A resource's edit: Preview & Share in edit mode with this collection's tags instead of 'Add to
 * Supercurations' (SPEC §2). Saves the link, then its tags here if they changed.
 */
export function EditResourceDialog({ link, supercuration, ...state }: EditResourceDialogProps) {
  const initialTags = link.supercurationTags[supercuration.id] ?? [];
  const [tags, setTags] = useState(initialTags);
  const services = useShareFormServices();
  const update = useUpdateLink(link.id);
  const { setTags: saveTags } = useResourceMutations(supercuration.id);
  const tagsChanged = tags.length !== initialTags.length || tags.some((t) => !initialTags.includes(t));

  async function submit(input: Parameters<typeof update.mutateAsync>[0]) {
    try {
      await update.mutateAsync(input);
      if (tagsChanged) await saveTags.mutateAsync({ linkId: link.id, tags });
      toast.success(SUPERCURATION_MESSAGES.resourceUpdated);
    } catch (err) {
      toast.error(messageOf(err, SUPERCURATION_MESSAGES.updateResourceFailed));
      throw err;
    }
  }

  return (
    <PreviewShareDialog {...state} {...services} supercurations={[]} mode="edit" initialValues={shareFormValuesOf(link)} onSubmit={submit}>
      <ResourceTagPicker categories={supercuration.tagCategories} value={tags} onChange={setTags} />
    </PreviewShareDialog>
  );
}
