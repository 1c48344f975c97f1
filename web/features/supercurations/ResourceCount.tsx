/** 'n resources', announced when it changes. */
export function ResourceCount({ count }: { count: number }) {
  return (
    <p aria-live="polite" className="text-sm text-muted-foreground">
      {count} {count === 1 ? 'resource' : 'resources'}
    </p>
  );
}
