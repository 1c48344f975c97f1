import { useId, useState } from 'react';
import { TRUNCATE_LENGTH } from '../../../shared/domain';
import { truncate } from '../../lib/text';

/**
 * A description cut at TRUNCATE_LENGTH characters with 'Show more' / 'Show less' (SPEC §5); `lang`:
 * the language of the page it describes, when known.
 */
export function ExpandableText({ text, lang }: { text: string; lang?: string | null }) {
  const id = useId();
  const [expanded, setExpanded] = useState(false);
  const short = truncate(text, TRUNCATE_LENGTH);
  return (
    <div className="text-sm">
      <p id={id} lang={lang ?? undefined} className="break-words whitespace-pre-line text-muted-foreground">
        {expanded ? text : short.text}
      </p>
      {short.cut && (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded((e) => !e)}
          className="mt-1 rounded-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}
