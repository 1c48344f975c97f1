import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * A setting saved as soon as it is changed. The choice being saved (`choosing`) shows at once — set
 * in the event itself, so it never flickers back — and is dropped when the save ends, leaving what
 * the server has: a refused save goes back to the saved value.
 */
export function useInstantSetting<Saved, Value>(queryKey: QueryKey, save: (value: Value) => Promise<Saved>) {
  const queryClient = useQueryClient();
  const [choosing, setChoosing] = useState<Value | null>(null);
  const mutation = useMutation({
    mutationFn: save,
    // A read under way would otherwise land after the save with what it fetched before it.
    onMutate: () => queryClient.cancelQueries({ queryKey }),
    onSuccess: (saved) => queryClient.setQueryData<Saved>(queryKey, saved),
    onSettled: () => setChoosing(null),
  });
  const choose = (value: Value, options?: Parameters<typeof mutation.mutate>[1]) => {
    setChoosing(value);
    mutation.mutate(value, options);
  };
  return { choosing, saving: choosing !== null, choose, mutation };
}
