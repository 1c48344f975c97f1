import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { type Db, openDatabase } from '../../server/db';
import { type LinkCheckDeps, createLinkFetcher, runLinkCheckRound } from '../../server/services/link-checks';
import { makeNewLinkJobs } from '../../server/services/new-link-jobs';
import { DAY_MS, LINK_HEALTH_MESSAGES, SUPERCURATION_MESSAGES, brokenLinksText } from '../../shared/domain';
import { signedInUser } from '../support/client';
import { testDatabases } from '../support/databases';
import { createCollection } from '../support/supercurations';
import { expectNoHorizontalScroll, signInInUi, visible, waitForPath } from './support/flows';
import { type E2E, useE2E } from './support/harness';
import { LOOPBACK_PREVIEWS, feedCard, feedCards, signInWithLinks, useArticleServer } from './support/link-flows';

const databases = await testDatabases();
const PHONE = { width: 375, height: 740 };

/**
 * The server's own link checker, run from the test on the server's database with the clock moved
 * on (the e2e server runs none: LINK_CHECK_PER_MINUTE is 0), against the loopback article site.
 */
function useLinkChecker(e2e: E2E) {
  let db: Db | undefined;
  // Claims book the host and the minute's budget at the time they are made: the clock only goes on.
  let clock = 0;
  afterAll(async () => {
    await db?.close();
  });

  /** Rounds at `at`, 2 s apart, until none is due: one check per host a round, and a HEAD answered 404 is asked by GET a second later. */
  async function checkDue(deps: LinkCheckDeps, at: number): Promise<number> {
    let t = at;
    while ((await runLinkCheckRound(deps, new Date(t))) > 0) t += 2_000;
    return t;
  }

  return {
    /** Checks every link twice, a day apart: a link whose page answers 404 both times is broken. */
    async checkTwice() {
      db ??= openDatabase({ dataDir: e2e.server.dataDir, databaseUrl: e2e.server.databaseUrl });
      const deps: LinkCheckDeps = {
        db,
        fetcher: createLinkFetcher({ allowPrivate: true, timeoutMs: 5000, publicUrl: 'http://127.0.0.1' }),
        perMinute: 6000,
        // A failed link is asked again exactly a day later.
        random: () => 0,
      };
      // The server queues new links' checks within a moment; here at once. A first check is due within the week.
      await makeNewLinkJobs(db);
      clock = Math.max(clock, Date.now()) + 8 * DAY_MS;
      clock = (await checkDue(deps, clock)) + DAY_MS + 3600_000;
      clock = await checkDue(deps, clock);
    },
  };
}

const badge = (card: Locator) => card.getByText(LINK_HEALTH_MESSAGES.badge, { exact: true });
const brokenFilter = (page: Page, n: number) => page.getByRole('button', { name: brokenLinksText(n) });

/** The resource cards of a collection page. */
function resources(page: Page): Locator {
  return page.getByRole('list', { name: 'Resources' }).getByRole('article');
}

function resource(page: Page, title: string): Locator {
  return resources(page).filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

for (const database of databases) {
  describe(`link health [${database.name}]`, () => {
    const e2e = useE2E(database, LOOPBACK_PREVIEWS);
    const site = useArticleServer();
    const checker = useLinkChecker(e2e);
    const gone = (title: string) => `${site.publish({ title, description: 'Soon gone.' })}-gone`;

    test("My Feed: the badge on the card and the link's page, 'Broken links (1)', Mark as fine", async () => {
      const page = await e2e.open();
      const { links } = await signInWithLinks(page, e2e.server.url, [
        { title: 'Healthy Article', description: 'Still there.', url: site.publish({ title: 'Healthy Article', description: '' }) },
        { title: 'Gone Article', description: 'Was there.', url: gone('Gone Article') },
      ]);
      const goneLink = links[1];
      if (!goneLink) throw new Error('no link was created');
      // Nothing is broken yet: no filter.
      await visible(feedCard(page, 'Gone Article'));
      expect(await page.getByRole('button', { name: /^Broken links/ }).count()).toBe(0);

      await checker.checkTwice();
      await page.reload();
      await visible(badge(feedCard(page, 'Gone Article')));
      expect(await badge(feedCard(page, 'Healthy Article')).count()).toBe(0);

      // The link's page says so too, with Mark as fine for its author.
      await page.goto(`/links/${goneLink.id}`);
      await visible(page.getByRole('heading', { name: 'Gone Article', level: 1 }));
      await visible(badge(page.getByRole('article')));
      await visible(page.getByRole('button', { name: LINK_HEALTH_MESSAGES.markFine }));

      // The filter, by keyboard: only the broken link, with what to do about it.
      await page.goto('/home');
      const filter = await visible(brokenFilter(page, 1));
      expect(await filter.getAttribute('aria-pressed')).toBe('false');
      await filter.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('broken') === '1');
      await expect.poll(() => filter.getAttribute('aria-pressed')).toBe('true');
      await visible(page.getByText(LINK_HEALTH_MESSAGES.filterHint));
      await expect.poll(() => feedCards(page).count()).toBe(1);
      await visible(feedCard(page, 'Gone Article'));

      // Mark as fine: the badge, the count and the list follow.
      await feedCard(page, 'Gone Article').getByRole('button', { name: LINK_HEALTH_MESSAGES.markFine }).click();
      await visible(page.getByText(LINK_HEALTH_MESSAGES.markedFine, { exact: true }));
      await visible(page.getByText(LINK_HEALTH_MESSAGES.noneBroken, { exact: true }));
      await brokenFilter(page, 0).click();
      await page.waitForURL((url) => !url.searchParams.has('broken'));
      await visible(feedCard(page, 'Gone Article'));
      await visible(feedCard(page, 'Healthy Article'));
      expect(await badge(feedCard(page, 'Gone Article')).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Broken links/ }).count()).toBe(0);
    });

    test('a collection: its filter for editors, a new URL and Remove clear it; visitors see the badge', async () => {
      const curator = await signedInUser(e2e.server.url, 'Careful Curator');
      const collection = await createCollection(curator, { title: 'Health Picks', isPublic: true });
      for (const title of ['Moved Article', 'Retired Article']) {
        await curator.api.addResource(collection.id, { link: { title, description: `About ${title}.`, url: gone(title) } });
      }
      const fine = site.publish({ title: 'Fine Article', description: 'Here to stay.' });
      await curator.api.addResource(collection.id, { link: { title: 'Fine Article', description: 'Here to stay.', url: fine } });
      await checker.checkTwice();

      // A visitor's page, as the server renders it (no script at all), shows the badge and no action.
      const visitor = await e2e.open({ javaScriptEnabled: false });
      await visitor.goto(`/supercurations/public/${collection.slug}`);
      await visible(badge(resource(visitor, 'Moved Article')));
      await visible(badge(resource(visitor, 'Retired Article')));
      expect(await badge(resource(visitor, 'Fine Article')).count()).toBe(0);
      expect(await visitor.getByRole('button', { name: LINK_HEALTH_MESSAGES.markFine }).count()).toBe(0);

      // The curator, on a phone.
      const page = await e2e.open({ viewport: PHONE });
      await signInInUi(page, curator.input);
      await waitForPath(page, '/home');
      await page.goto(`/supercurations/${collection.id}`);
      await visible(page.getByRole('heading', { name: 'Health Picks', level: 1 }));
      await brokenFilter(page, 2).click();
      await page.waitForURL((url) => url.searchParams.get('broken') === '1');
      await visible(page.getByText(LINK_HEALTH_MESSAGES.filterHint));
      await visible(resource(page, 'Moved Article'));
      await visible(resource(page, 'Retired Article'));
      await resource(page, 'Fine Article').waitFor({ state: 'detached' });
      await expectNoHorizontalScroll(page, PHONE.width);

      // A working URL for the first: no longer broken.
      await resource(page, 'Moved Article').getByRole('button', { name: 'Edit resource' }).click();
      const edit = await visible(page.getByRole('dialog', { name: 'Edit link' }));
      await edit.getByLabel('URL (optional)').fill(site.publish({ title: 'Moved Article', description: 'Its new home.' }));
      await edit.getByRole('button', { name: 'Update' }).click();
      await edit.waitFor({ state: 'hidden' });
      await visible(page.getByText(SUPERCURATION_MESSAGES.resourceUpdated));
      await resource(page, 'Moved Article').waitFor({ state: 'detached' });
      await visible(brokenFilter(page, 1));

      // The second leaves the collection.
      await resource(page, 'Retired Article').getByRole('button', { name: 'Remove resource' }).click();
      const confirm = await visible(page.getByRole('alertdialog', { name: 'Remove Resource' }));
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await visible(page.getByText(LINK_HEALTH_MESSAGES.noneBroken, { exact: true }));
      await visible(brokenFilter(page, 0));

      // Off: the collection's two links left, neither broken.
      await brokenFilter(page, 0).click();
      await expect.poll(() => resources(page).count()).toBe(2);
      await visible(resource(page, 'Moved Article'));
      await visible(resource(page, 'Fine Article'));
      expect(await page.getByText(LINK_HEALTH_MESSAGES.badge, { exact: true }).count()).toBe(0);
    });
  });
}
