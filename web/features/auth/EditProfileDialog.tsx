import { useMutation } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  AVATAR_MAX_BYTES,
  BIO_MAX_LENGTH,
  FEDIVERSE_USERNAME_MAX_LENGTH,
  LOCATION_MAX_LENGTH,
  MSG,
  NAME_MAX_LENGTH,
  profileUpdateSchema,
  WEBSITE_MAX_LENGTH,
  type UserProfile,
} from '../../../shared/domain';
import { Avatar } from '../../../shared/ui/primitives/avatar';
import { Button } from '../../../shared/ui/primitives/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../shared/ui/primitives/dialog';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { Textarea } from '../../../shared/ui/primitives/textarea';
import { api, messageOf } from '../../lib/api';
import { useEditProfileDialog } from './useEditProfileDialog';
import { useUpdateSessionUser } from '../../entities/session/useSession';

/** The Edit profile modal of the signed-in user. */
export function EditProfileDialog({ user }: { user: UserProfile }) {
  const { open, setOpen } = useEditProfileDialog();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit profile</DialogTitle>
          <DialogDescription>This is how other people see you on Supercurate.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from the saved profile. */}
        <ProfileForm user={user} onSaved={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ProfileForm({ user, onSaved }: { user: UserProfile; onSaved: () => void }) {
  const updateSessionUser = useUpdateSessionUser();
  const [name, setName] = useState(user.name);
  const [bio, setBio] = useState(user.bio ?? '');
  const [location, setLocation] = useState(user.location ?? '');
  const [website, setWebsite] = useState(user.website ?? '');
  const [username, setUsername] = useState(user.fediverseUsername ?? '');
  // Not sent while the user has none and types none: the server makes one when it is first needed.
  const changes = () => ({ name, bio, location, website, fediverseUsername: username === '' && !user.fediverseUsername ? undefined : username });
  const [invalid, setInvalid] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: () => api.updateProfile(user.id, changes()),
    onSuccess: (updated) => {
      updateSessionUser(updated);
      toast.success(MSG.profileUpdated);
      onSaved();
    },
  });
  const upload = useMutation({
    mutationFn: (file: File) => api.uploadAvatar(user.id, file),
    onSuccess: updateSessionUser,
  });
  const removeAvatar = useMutation({
    mutationFn: () => api.removeAvatar(user.id),
    onSuccess: updateSessionUser,
  });
  const avatarBusy = upload.isPending || removeAvatar.isPending;
  const avatarFailure = upload.error ?? removeAvatar.error;
  const avatarError = fileError ?? (avatarFailure && messageOf(avatarFailure, MSG.profileUpdateFailed));

  function onFileChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = !file.type.startsWith('image/')
      ? MSG.imagesOnly
      : file.size > AVATAR_MAX_BYTES
        ? MSG.imageTooLarge
        : null;
    setFileError(problem);
    removeAvatar.reset();
    if (problem) upload.reset();
    else upload.mutate(file);
  }

  function onRemoveAvatar() {
    setFileError(null);
    upload.reset();
    removeAvatar.mutate();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = profileUpdateSchema.safeParse(changes());
    setInvalid(parsed.success ? null : (parsed.error.issues[0]?.message ?? MSG.profileUpdateFailed));
    if (parsed.success) save.mutate();
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <div className="flex flex-wrap items-center gap-4">
        <Avatar src={user.avatarUrl} alt="Your avatar" className="size-16" />
        <div className="flex flex-wrap gap-2">
          <input
            id="profile-avatar"
            type="file"
            accept="image/*"
            className="peer sr-only"
            disabled={avatarBusy}
            onChange={onFileChange}
          />
          <Label
            htmlFor="profile-avatar"
            className="inline-flex h-8 cursor-pointer items-center rounded-md border border-input bg-card px-3 text-xs shadow-sm transition-colors peer-focus-visible:ring-2 peer-focus-visible:ring-ring hover:bg-muted"
          >
            {upload.isPending ? 'Uploading...' : 'Upload avatar'}
          </Label>
          <Button variant="ghost" size="sm" disabled={avatarBusy} onClick={onRemoveAvatar}>
            {removeAvatar.isPending ? 'Removing...' : 'Use generated avatar'}
          </Button>
        </div>
      </div>
      <FormError message={avatarError} />

      <div className="grid gap-2">
        <Label htmlFor="profile-name">Name</Label>
        <Input
          id="profile-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={NAME_MAX_LENGTH}
          autoComplete="name"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="profile-bio">Bio</Label>
        <Textarea
          id="profile-bio"
          value={bio}
          onChange={(e) => setBio(e.target.value)}
          maxLength={BIO_MAX_LENGTH}
          rows={3}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="profile-location">Location</Label>
        <Input
          id="profile-location"
          value={location}
          onChange={(e) => setLocation(e.target.value)}
          maxLength={LOCATION_MAX_LENGTH}
          autoComplete="address-level2"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="profile-website">Website</Label>
        <Input
          id="profile-website"
          type="url"
          value={website}
          onChange={(e) => setWebsite(e.target.value)}
          maxLength={WEBSITE_MAX_LENGTH}
          placeholder="https://..."
          autoComplete="url"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="profile-fediverse-username">Fediverse username</Label>
        <div className="flex items-center rounded-md border border-input bg-card shadow-sm focus-within:ring-2 focus-within:ring-ring">
          <span aria-hidden="true" className="pl-3 text-sm text-muted-foreground">
            @
          </span>
          <Input
            id="profile-fediverse-username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            maxLength={FEDIVERSE_USERNAME_MAX_LENGTH}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            aria-describedby="profile-fediverse-username-hint"
            className="border-0 shadow-none focus-visible:ring-0"
          />
        </div>
        <p id="profile-fediverse-username-hint" className="text-xs text-muted-foreground">
          Once you have a public supercuration, people follow you from Mastodon as @{username || 'username'}@{window.location.host}. Lowercase
          letters, numbers and underscores.
        </p>
      </div>
      <FormError message={invalid ?? (save.error && messageOf(save.error, MSG.profileUpdateFailed))} />

      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending || !name.trim()}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}
