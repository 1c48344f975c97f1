/** The 'Resources' heading (id resources-heading, for the section's aria-labelledby) and 'n resources', announced when it changes. */
export function ResourcesHeading({ count }: { count: number }) {
  return (
    <div className="flex items-baseline gap-3">
      <h2 id="resources-heading" className="text-lg font-semibold">
        Resources
      </h2>
      <p aria-live="polite" className="text-sm text-muted-foreground">
        {count} {count === 1 ? 'resource' : 'resources'}
      </p>
    </div>
  );
}
