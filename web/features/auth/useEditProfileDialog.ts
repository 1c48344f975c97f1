import { create } from 'zustand';

/** Whether the Edit profile modal is open; the user block and the profile page both open it. */
export const useEditProfileDialog = create<{ open: boolean; setOpen: (open: boolean) => void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
