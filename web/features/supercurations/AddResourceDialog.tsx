import toast from 'react-hot-toast';
import type { SupercurationOption } from '../../../shared/ui/SupercurationPicker';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../shared/ui/primitives/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../shared/ui/primitives/tabs';
import { AddLinkBox } from '../../entities/links/AddLinkBox';
import { useResourceMutations } from './mutations';
import { SavedPostsPicker } from './SavedPostsPicker';

interface AddResourceDialogProps {
  /** The collection; a new link shared into a private one starts out of the main feed. */
  supercuration: SupercurationOption;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** 'Add New Resource': one of the user's saved posts, or a new link through Preview & Share. */
export function AddResourceDialog({ supercuration, open, onOpenChange }: AddResourceDialogProps) {
  const supercurationId = supercuration.id;
  const { add } = useResourceMutations(supercurationId);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Add New Resource</DialogTitle>
          <DialogDescription>Pick one of your saved posts, or share a new link into this supercuration.</DialogDescription>
        </DialogHeader>
        <Tabs defaultValue="saved">
          <TabsList aria-label="Resource source" className="w-full">
            <TabsTrigger value="saved" className="flex-1">
              Saved posts
            </TabsTrigger>
            <TabsTrigger value="new" className="flex-1">
              New link
            </TabsTrigger>
          </TabsList>
          <TabsContent value="saved" className="mt-4">
            <SavedPostsPicker supercurationId={supercurationId} />
          </TabsContent>
          <TabsContent value="new" className="mt-4">
            <AddLinkBox
              className="border-0 p-0 shadow-none sm:p-0"
              share={(link) => add.mutateAsync({ link })}
              into={supercuration}
              onShared={() => {
                toast.success('Resource added');
                onOpenChange(false);
              }}
            />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
