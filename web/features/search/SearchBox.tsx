import { Search } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Input } from '../../../shared/ui/primitives/input';

/** Whether a key press is typing into something (where '/' is a character, not a shortcut). */
const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The signed-in header's search box: submits to /search?q=…; '/' focuses it (the one shown: the
 * sidebar's or the small screens' top bar's) unless the user is typing elsewhere.
 */
export function SearchBox({ className }: { className?: string }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return;
      if (!input.current || input.current.offsetParent === null) return;
      e.preventDefault();
      input.current.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <form
      role="search"
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        const q = input.current?.value.trim() ?? '';
        if (q) void navigate(`/search?q=${encodeURIComponent(q)}`);
      }}
    >
      <div className="relative">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          ref={input}
          key={params.get('q') ?? ''}
          type="search"
          name="q"
          defaultValue={params.get('q') ?? ''}
          aria-label="Search my links"
          aria-keyshortcuts="/"
          placeholder="Search (press /)"
          maxLength={200}
          className="pl-8"
        />
      </div>
    </form>
  );
}
