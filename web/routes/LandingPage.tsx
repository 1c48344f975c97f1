import { Compass, Mail, Users, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../shared/ui/primitives/button';
import { useSession } from '../entities/session/useSession';
import { useDocumentTitle } from '../lib/useDocumentTitle';

const BENEFITS: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Compass,
    title: 'Discover quality content',
    text: 'Find the articles, videos and tools hand-picked by curators you trust.',
  },
  {
    icon: Users,
    title: 'Build your network',
    text: 'Follow curators, share what you find and collaborate on collections.',
  },
  {
    icon: Mail,
    title: 'Stay informed with personalized email updates',
    text: 'Subscribe to the supercurations you love and get new resources by e-mail.',
  },
];

export function LandingPage() {
  useDocumentTitle();
  const { user } = useSession();
  return (
    <>
      <section className="bg-gradient-to-b from-accent to-background">
        <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-20 text-center sm:px-6 sm:py-28">
          <p className="mb-4 rounded-full border bg-card px-3 py-1 text-sm font-medium text-accent-foreground">
            Supercurate
          </p>
          <h1 className="text-4xl font-extrabold tracking-tight text-balance sm:text-6xl">Internet. Curated.</h1>
          <p className="mt-6 max-w-2xl text-lg text-balance text-muted-foreground">
            Share the links worth reading, tag them, and gather them into supercurations that others can browse and
            subscribe to.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            <Button size="lg" asChild>
              <Link to="/register">Get Started</Link>
            </Button>
            {user ? (
              <Button size="lg" variant="outline" asChild>
                <Link to="/home">Go to My Feed</Link>
              </Button>
            ) : (
              <Button size="lg" variant="outline" asChild>
                <Link to="/directory">Explore the directory</Link>
              </Button>
            )}
          </div>
        </div>
      </section>
      <section aria-labelledby="benefits-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="benefits-heading" className="sr-only">
          Why Supercurate
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {BENEFITS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border bg-card p-6 shadow-sm">
              <span className="flex size-11 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <h3 className="mt-4 text-base font-semibold">{title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
