import { Mail } from 'lucide-react';

/**
 * The directory hero's subscribe box. E-mail subscriptions are per collection (the contract has no
 * directory-wide list), so this explains where to subscribe instead of collecting an address here.
 */
export function DirectoryHeroNote() {
  return (
    <aside aria-labelledby="directory-updates" className="rounded-xl border bg-card p-5 shadow-sm">
      <h2 id="directory-updates" className="flex items-center gap-2 font-semibold">
        <Mail aria-hidden="true" className="size-4 text-primary" />
        Stay informed
      </h2>
      <p className="mt-2 text-sm text-muted-foreground">
        Open a supercuration you like and subscribe with your e-mail: you'll hear when new resources are added.
      </p>
    </aside>
  );
}
