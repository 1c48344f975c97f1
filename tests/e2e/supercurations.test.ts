import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { LINK_MESSAGES } from '../../shared/domain';
import { failure, signedInUser, testClient } from '../support/client';
import { testDatabases } from '../support/databases';
import { expectNoHorizontalScroll, holdRequests, signInInUi, visible, waitForPath } from './support/flows';
import { useE2E } from './support/harness';
import { LOOPBACK_PREVIEWS, feedCard, openShareDialog, signInWithLinks, useArticleServer } from './support/link-flows';

const databases = await testDatabases();
const PHONE = { width: 375, height: 740 };
const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** The resource cards of a collection page. */
function resources(page: Page): Locator {
  return page.getByRole('list', { name: 'Resources' }).getByRole('article');
}

function resource(page: Page, title: string): Locator {
  return resources(page).filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** A signed-in API user with a collection, tag categories and resources (new links). */
async function curatorWithCollection(
  baseUrl: string,
  options: { isPublic: boolean; title?: string; name?: string; tags?: Record<string, string[]>; links?: { title: string; format?: 'video' | 'article'; tags?: string[] }[] },
) {
  const curator = await signedInUser(baseUrl, options.name ?? 'Curator Example');
  const slug = options.isPublic ? unique('collection') : undefined;
  const collection = await curator.api.createSupercuration({
    title: options.title ?? unique('Collection'),
    description: 'Links worth keeping.',
    isPublic: options.isPublic,
    slug,
  });
  for (const [categoryName, tags] of Object.entries(options.tags ?? {})) {
    const category = await curator.api.createTagCategory(collection.id);
    await curator.api.updateTagCategory(collection.id, category.id, { name: categoryName });
    for (const tag of tags) await curator.api.addTag(collection.id, category.id, tag);
  }
  const links = [];
  for (const link of options.links ?? []) {
    const added = await curator.api.addResource(collection.id, {
      link: { title: link.title, description: `About ${link.title}.`, format: link.format },
    });
    if (link.tags) await curator.api.setResourceTags(collection.id, added.id, link.tags);
    links.push(added);
  }
  return { curator, collection, slug: slug ?? '', links };
}

for (const database of databases) {
  describe(`supercurations [${database.name}]`, () => {
    const e2e = useE2E(database, LOOPBACK_PREVIEWS);
    const site = useArticleServer();

    test('create a public collection, add a saved and a new link, tag, filter by tag, grid and list, remove', async () => {
      const page = await e2e.open();
      const savedUrl = site.publish({ title: 'Saved Article', description: 'Shared before.' });
      await signInWithLinks(page, e2e.server.url, [{ title: 'Saved Article', description: 'Shared before.', url: savedUrl }]);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Supercurations' }).click();
      await visible(page.getByText('No supercurations yet'));
      await page.getByRole('link', { name: 'New Supercuration' }).first().click();
      await waitForPath(page, '/supercurations/new');

      // Title is required; the slug field appears only when public and follows the title.
      await page.getByRole('button', { name: 'Create Supercuration' }).click();
      await visible(page.getByText('Title is required'));
      const slugField = page.getByRole('textbox', { name: /^URL/ });
      expect(await slugField.count()).toBe(0);
      const title = unique('AI Reading List');
      await page.getByLabel('Title').fill(title);
      const publicSwitch = page.getByRole('switch', { name: 'Public' });
      expect(await publicSwitch.getAttribute('aria-checked')).toBe('false');
      await publicSwitch.click();
      const slugInput = await visible(slugField);
      expect(await slugInput.inputValue()).toBe(title.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
      await slugInput.fill('Not A Slug!');
      await visible(page.getByText('Only lowercase letters, numbers, and hyphens are allowed'));
      const slug = unique('ai-reading');
      await slugInput.fill(slug);
      // Typing the title no longer changes an edited slug.
      await page.getByLabel('Title').fill(`${title} 2`);
      expect(await slugInput.inputValue()).toBe(slug);
      await page.getByLabel('Title').fill(title);
      await page.getByRole('group', { name: 'Topics' }).getByRole('button', { name: 'AI', exact: true }).click();

      const held = await holdRequests(page, '**/api/supercurations');
      await page.getByRole('button', { name: 'Create Supercuration' }).click();
      await visible(page.getByRole('button', { name: 'Creating...' }));
      await held.release();
      await waitForPath(page, '/supercurations');

      const card = await visible(page.getByRole('article').filter({ has: page.getByRole('heading', { name: title }) }));
      await visible(card.getByText('Public', { exact: true }));
      await visible(card.getByText('0 links'));
      expect(await card.getByRole('link', { name: /Preview/ }).getAttribute('href')).toBe(`/supercurations/public/${slug}`);
      await card.getByRole('link', { name: /Edit/ }).click();
      await visible(page.getByRole('heading', { name: title, level: 1 }));
      expect(await page.getByLabel('Public URL', { exact: true }).inputValue()).toBe(`${e2e.server.origin}/supercurations/public/${slug}`);

      // Edit Tags: a category 'Level' with two tags.
      await page.getByRole('button', { name: 'Edit Tags' }).click();
      const tagsDialog = await visible(page.getByRole('dialog', { name: 'Edit Tags' }));
      await tagsDialog.getByRole('button', { name: 'Add Category' }).click();
      const nameInput = await visible(tagsDialog.getByLabel('Category name'));
      expect(await nameInput.inputValue()).toBe('New Category');
      await nameInput.fill('   ');
      await nameInput.press('Enter');
      await visible(tagsDialog.getByText('Category name is required'));
      await nameInput.fill('Level');
      await nameInput.press('Enter');
      const newTag = await visible(tagsDialog.getByLabel('New tag in Level'));
      await newTag.fill('Beginner');
      await tagsDialog.getByRole('button', { name: 'Add tag' }).click();
      await visible(tagsDialog.getByRole('button', { name: 'Remove tag Beginner' }));
      await newTag.fill('Advanced');
      await newTag.press('Enter');
      await visible(tagsDialog.getByRole('button', { name: 'Remove tag Advanced' }));
      await page.keyboard.press('Escape');
      await tagsDialog.waitFor({ state: 'hidden' });

      // Add New Resource: a saved post, then a new link through Preview & Share.
      await visible(page.getByText('No resources yet'));
      await page.getByRole('button', { name: 'Add New Resource' }).first().click();
      const addDialog = await visible(page.getByRole('dialog', { name: 'Add New Resource' }));
      await addDialog.getByLabel('Search saved posts').fill('zzz-nothing');
      await visible(addDialog.getByText('No links match your search'));
      await addDialog.getByLabel('Search saved posts').fill('Saved');
      await addDialog.getByRole('button', { name: 'Add Saved Article' }).click();
      await visible(addDialog.getByRole('button', { name: 'Saved Article is added' }));
      await addDialog.getByRole('tab', { name: 'New link' }).click();
      const freshUrl = site.publish({ title: 'Fresh Article', description: 'Brand new.' });
      const share = await openShareDialog(page, freshUrl);
      // Inside a collection the link goes to it: no 'Add to Supercurations'.
      expect(await share.getByText('Add to Supercurations').count()).toBe(0);
      await share.getByRole('button', { name: 'Share', exact: true }).click();
      await share.waitFor({ state: 'hidden' });
      await addDialog.waitFor({ state: 'hidden' });
      await visible(resource(page, 'Fresh Article'));
      await visible(resource(page, 'Saved Article'));
      await visible(page.getByText('2 resources'));

      // Tag a resource: the edit dialog carries this collection's tags.
      await resource(page, 'Fresh Article').getByRole('button', { name: 'Edit resource' }).click();
      const edit = await visible(page.getByRole('dialog', { name: 'Edit link' }));
      await edit.getByRole('group', { name: 'Level' }).getByRole('button', { name: 'Advanced' }).click();
      await edit.getByRole('button', { name: 'Update' }).click();
      await edit.waitFor({ state: 'hidden' });
      await visible(page.getByText('Resource updated successfully'));
      await visible(resource(page, 'Fresh Article').getByRole('list', { name: 'Collection tags' }).getByText('Advanced'));

      // Filter by tag, then grid and list.
      const filter = page.getByRole('group', { name: 'Filter by tag' });
      await filter.getByRole('button', { name: 'Advanced' }).click();
      await page.waitForURL((url) => url.searchParams.get('tag') === 'Advanced');
      await expect.poll(() => resources(page).count()).toBe(1);
      await visible(resource(page, 'Fresh Article'));
      await filter.getByRole('button', { name: 'Beginner' }).click();
      await visible(page.getByText('No resources match these filters'));
      await filter.getByRole('button', { name: 'All tags' }).click();
      await expect.poll(() => resources(page).count()).toBe(2);

      const gridButton = page.getByRole('button', { name: 'Grid view' });
      const listButton = page.getByRole('button', { name: 'List view' });
      expect(await gridButton.getAttribute('aria-pressed')).toBe('true');
      await listButton.click();
      await page.waitForURL((url) => url.searchParams.get('view') === 'list');
      await expect.poll(() => listButton.getAttribute('aria-pressed')).toBe('true');
      expect(await gridButton.getAttribute('aria-pressed')).toBe('false');

      // The same URL again is refused.
      await page.getByRole('button', { name: 'Add New Resource' }).click();
      await visible(page.getByRole('dialog', { name: 'Add New Resource' })).then((d) => d.getByRole('tab', { name: 'New link' }).click());
      const again = await openShareDialog(page, freshUrl);
      await again.getByRole('button', { name: 'Share', exact: true }).click();
      await visible(again.getByText('This link has already been added to this supercuration'));
      await again.getByRole('button', { name: 'Cancel' }).click();
      await page.keyboard.press('Escape');

      // Remove Resource asks first.
      await resource(page, 'Saved Article').getByRole('button', { name: 'Remove resource' }).click();
      const confirm = await visible(page.getByRole('alertdialog', { name: 'Remove Resource' }));
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await resource(page, 'Saved Article').waitFor({ state: 'detached' });
      await visible(page.getByText('1 resource', { exact: true }));

      // Delete Supercuration asks first, then goes back to the list.
      await page.getByRole('button', { name: 'Delete Supercuration' }).click();
      const deleteDialog = await visible(page.getByRole('alertdialog', { name: 'Delete Supercuration' }));
      await deleteDialog.getByRole('button', { name: 'Delete' }).click();
      await waitForPath(page, '/supercurations');
      await visible(page.getByText('No supercurations yet'));
    });

    test("'Add to Supercurations' in Preview & Share puts a new link into the chosen collection", async () => {
      const page = await e2e.open();
      const user = await signInWithLinks(page, e2e.server.url);
      const mine = await user.api.createSupercuration({ title: unique('Picked'), isPublic: false });
      await page.reload();
      const dialog = await openShareDialog(page, site.publish({ title: 'Into a collection', description: 'Picked.' }));
      const picker = dialog.getByRole('group', { name: 'Add to Supercurations' });
      await picker.getByLabel(mine.title).check();
      await dialog.getByRole('button', { name: 'Share', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });

      await page.goto(`/supercurations/${mine.id}`);
      await visible(resource(page, 'Into a collection'));
      await visible(page.getByText('1 resource', { exact: true }));
    });

    test("Preview & Share into private collections only starts with 'Don't add to main feed' checked; the author may uncheck it", async () => {
      const page = await e2e.open();
      const user = await signInWithLinks(page, e2e.server.url);
      const secret = await user.api.createSupercuration({ title: unique('Secret'), isPublic: false });
      const open = await user.api.createSupercuration({ title: unique('Open'), isPublic: true, slug: unique('open') });
      await page.reload();
      const visitor = testClient(e2e.server.url);

      let dialog = await openShareDialog(page, site.publish({ title: 'Kept private', description: 'Team only.' }));
      let box = dialog.getByLabel("Don't add to main feed");
      const hint = () => dialog.getByText(LINK_MESSAGES.staysPrivate);
      let picker = dialog.getByRole('group', { name: 'Add to Supercurations' });
      expect(await box.isChecked()).toBe(false);
      await picker.getByLabel(secret.title).check();
      await expect.poll(() => box.isChecked()).toBe(true);
      await visible(hint());
      // A public collection as well: the link is public anyway.
      await picker.getByLabel(open.title).check();
      await expect.poll(() => box.isChecked()).toBe(false);
      expect(await hint().count()).toBe(0);
      await picker.getByLabel(open.title).uncheck();
      await expect.poll(() => box.isChecked()).toBe(true);
      await dialog.getByRole('button', { name: 'Share', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      const kept = (await user.api.listResources(secret.id)).items[0];
      expect([kept?.title, kept?.inMainFeed]).toEqual(['Kept private', false]);
      expect((await failure(visitor.api.getLink(kept?.id ?? ''))).status).toBe(404);

      // Unchecked by the author, it stays unchecked whatever collections follow, and the link is shared to the feed.
      dialog = await openShareDialog(page, site.publish({ title: 'Shared anyway', description: 'For all.' }));
      box = dialog.getByLabel("Don't add to main feed");
      picker = dialog.getByRole('group', { name: 'Add to Supercurations' });
      await picker.getByLabel(secret.title).check();
      await expect.poll(() => box.isChecked()).toBe(true);
      await box.uncheck();
      expect(await hint().count()).toBe(0);
      await picker.getByLabel(open.title).check();
      await picker.getByLabel(open.title).uncheck();
      expect(await box.isChecked()).toBe(false);
      await dialog.getByRole('button', { name: 'Share', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await visible(feedCard(page, 'Shared anyway'));
      const shared = (await user.api.listLinks()).items.find((l) => l.title === 'Shared anyway');
      expect([shared?.inMainFeed, shared?.supercurationIds]).toEqual([true, [secret.id]]);
      expect((await visitor.api.getLink(shared?.id ?? '')).title).toBe('Shared anyway');

      // A new link from a private collection's Add New Resource starts out of the main feed too.
      await page.goto(`/supercurations/${secret.id}`);
      await page.getByRole('button', { name: 'Add New Resource' }).first().click();
      const addDialog = await visible(page.getByRole('dialog', { name: 'Add New Resource' }));
      await addDialog.getByRole('tab', { name: 'New link' }).click();
      dialog = await openShareDialog(page, site.publish({ title: 'Added privately', description: 'Inside.' }));
      expect(await dialog.getByLabel("Don't add to main feed").isChecked()).toBe(true);
      await visible(hint());
    });

    test('a collaborator edits a resource; a stranger gets "Supercuration not found"', async () => {
      const { curator, collection, links } = await curatorWithCollection(e2e.server.url, {
        isPublic: false,
        tags: { Mood: ['Calm', 'Loud'] },
        links: [{ title: 'Shared Work' }],
      });
      const helperName = unique('Grace');
      const helper = await signedInUser(e2e.server.url, helperName);

      // The owner invites them.
      const owner = await e2e.open();
      await signInInUi(owner, curator.input);
      await waitForPath(owner, '/home');
      await owner.goto(`/supercurations/${collection.id}`);
      await visible(owner.getByText('Private', { exact: true }));
      await owner.getByRole('button', { name: 'Manage Collaborators' }).click();
      const manage = await visible(owner.getByRole('dialog', { name: 'Manage Collaborators' }));
      await manage.getByPlaceholder('Search users by name...').fill(helperName.slice(0, 1).toLowerCase());
      await manage.getByPlaceholder('Search users by name...').fill(helperName.toLowerCase());
      await manage.getByRole('button', { name: `Add ${helperName}` }).click();
      await visible(owner.getByText(`Added ${helperName} as collaborator`));
      await visible(manage.getByRole('button', { name: `Remove ${helperName}` }));
      await owner.keyboard.press('Escape');

      // The collaborator finds it in My Supercurations and edits a resource with its tags.
      const page = await e2e.open();
      await signInInUi(page, helper.input);
      await waitForPath(page, '/home');
      await page.goto('/supercurations');
      const card = await visible(page.getByRole('article').filter({ has: page.getByRole('heading', { name: collection.title }) }));
      await visible(card.getByText('Private', { exact: true }));
      await card.getByRole('link', { name: /Edit/ }).click();
      await visible(page.getByRole('heading', { name: collection.title, level: 1 }));
      await visible(page.getByRole('button', { name: 'Edit Tags' }));
      // Deleting the collection is the owner's.
      expect(await page.getByRole('button', { name: 'Delete Supercuration' }).count()).toBe(0);
      await resource(page, 'Shared Work').getByRole('button', { name: 'Edit resource' }).click();
      const edit = await visible(page.getByRole('dialog', { name: 'Edit link' }));
      await edit.getByLabel('Title').fill('Shared Work, revised');
      await edit.getByRole('group', { name: 'Mood' }).getByRole('button', { name: 'Calm' }).click();
      await edit.getByRole('button', { name: 'Update' }).click();
      await edit.waitFor({ state: 'hidden' });
      await visible(page.getByText('Resource updated successfully'));
      const revised = await visible(resource(page, 'Shared Work, revised'));
      await visible(revised.getByRole('list', { name: 'Collection tags' }).getByText('Calm'));
      const link = await curator.api.getLink(links[0]?.id ?? '');
      expect([link.title, link.supercurationTags[collection.id]]).toEqual(['Shared Work, revised', ['Calm']]);

      // A signed-in stranger is told it doesn't exist.
      const strangerPage = await e2e.open();
      await signInWithLinks(strangerPage, e2e.server.url);
      await strangerPage.goto(`/supercurations/${collection.id}`);
      await visible(strangerPage.getByRole('heading', { name: 'Supercuration not found', level: 1 }));
      expect(await strangerPage.getByText('Shared Work').count()).toBe(0);

      // The owner removes the collaborator.
      await owner.getByRole('button', { name: 'Manage Collaborators' }).click();
      await manage.getByRole('button', { name: `Remove ${helperName}` }).click();
      await visible(owner.getByText('Removed collaborator'));
      await manage.getByRole('button', { name: `Remove ${helperName}` }).waitFor({ state: 'detached' });
    });

    test('a visitor filters the public page, subscribes by e-mail; a private one is a 404', async () => {
      const { curator, collection, slug } = await curatorWithCollection(e2e.server.url, {
        isPublic: true,
        name: 'Public Curator',
        tags: { Depth: ['Deep', 'Light'] },
        links: [
          { title: 'Old Video', format: 'video', tags: ['Deep'] },
          { title: 'New Article', format: 'article', tags: ['Light'] },
        ],
      });
      const page = await e2e.open();
      await page.goto(`/supercurations/public/${slug}`);
      await visible(page.getByRole('heading', { name: collection.title, level: 1 }));
      await visible(page.getByText('Links worth keeping.'));
      const created = new Date(collection.createdAt).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
      await visible(page.getByText(`Created ${created}`));
      expect(await page.getByRole('link', { name: 'Curated by Public Curator' }).getAttribute('href')).toBe(`/profile/${curator.me.id}`);
      expect(await page.getByRole('link', { name: 'Sign up or log in' }).getAttribute('href')).toBe('/home');
      await visible(page.getByText('2 resources'));
      await expect.poll(() => resources(page).count()).toBe(2);
      // Newest first by default; Oldest First reverses.
      await visible(resources(page).first().getByRole('heading', { name: 'New Article' }));
      await page.getByLabel('Sort').selectOption({ label: 'Oldest First' });
      await page.waitForURL((url) => url.searchParams.get('sort') === 'oldest');
      await visible(resources(page).first().getByRole('heading', { name: 'Old Video' }));

      await page.getByRole('complementary', { name: 'Tags' }).getByRole('button', { name: 'Deep' }).click();
      await expect.poll(() => resources(page).count()).toBe(1);
      await visible(resource(page, 'Old Video'));
      await page.getByRole('complementary', { name: 'Tags' }).getByRole('button', { name: 'All tags' }).click();
      await page.getByRole('group', { name: 'Format' }).getByRole('button', { name: 'Article' }).click();
      await expect.poll(() => resources(page).count()).toBe(1);
      await visible(resource(page, 'New Article'));
      await page.getByRole('button', { name: 'List view' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true');

      await page.getByLabel('Email').fill('not-an-address');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await visible(page.getByText('Please enter a valid email address'));
      await page.getByLabel('Email').fill(`reader-${randomBytes(3).toString('hex')}@example.com`);
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await visible(page.getByText("Thanks for subscribing! You'll receive updates when new resources are added."));
      expect(await page.getByLabel('Email').count()).toBe(0);

      // Made private, its public address answers like a missing one.
      await curator.api.updateSupercuration(collection.id, { isPublic: false });
      await page.goto(`/supercurations/public/${slug}`);
      await visible(page.getByRole('heading', { name: "This supercuration doesn't exist or is private", level: 1 }));
      await page.goto(`/supercurations/public/${unique('never-made')}`);
      await visible(page.getByRole('heading', { name: "This supercuration doesn't exist or is private", level: 1 }));
    });

    test('on a phone the tag filter is a drawer, and nothing scrolls sideways', async () => {
      const { slug } = await curatorWithCollection(e2e.server.url, {
        isPublic: true,
        tags: { Topic: ['Space', 'Ocean'] },
        links: [
          { title: 'Rockets and a rather long title that has to wrap on a small screen', tags: ['Space'] },
          { title: 'Whales', tags: ['Ocean'] },
        ],
      });
      const page = await e2e.open({ viewport: PHONE });
      await page.goto(`/supercurations/public/${slug}`);
      await expect.poll(() => resources(page).count()).toBe(2);
      await expectNoHorizontalScroll(page, PHONE.width);
      await page.getByRole('button', { name: 'Filter by tag' }).click();
      const drawer = await visible(page.getByRole('dialog', { name: 'Filter by tag' }));
      await drawer.getByRole('button', { name: 'Ocean' }).click();
      await drawer.waitFor({ state: 'hidden' });
      await expect.poll(() => resources(page).count()).toBe(1);
      await visible(resource(page, 'Whales'));
      await expectNoHorizontalScroll(page, PHONE.width);

      await page.goto('/directory');
      await visible(page.getByRole('list', { name: 'Supercurations' }));
      await expectNoHorizontalScroll(page, PHONE.width);
    });

    test('the directory finds public collections by search and focus, never private ones', async () => {
      const word = `zebra${randomBytes(3).toString('hex')}`;
      const { slug, collection } = await curatorWithCollection(e2e.server.url, { isPublic: true, title: `${word} migration notes` });
      const { curator } = await curatorWithCollection(e2e.server.url, { isPublic: false, title: `${word} secret plans` });
      await curator.api.createSupercuration({
        title: `${word} machine minds`,
        isPublic: true,
        slug: unique('minds'),
        topics: ['ai'],
      });

      const page = await e2e.open();
      // A visitor's /directory arrives rendered with its results; going there within the app loads them.
      await page.goto('/');
      const held = await holdRequests(page, '**/api/directory*');
      await page.getByRole('banner').getByRole('link', { name: 'Directory' }).click();
      await waitForPath(page, '/directory');
      const skeletons = page.getByRole('status').locator('> div[aria-hidden="true"]');
      await expect.poll(() => skeletons.count()).toBe(24);
      await held.release();

      await page.getByLabel('Search supercurations').fill(word);
      await page.waitForURL((url) => url.searchParams.get('q') === word);
      const results = page.getByRole('list', { name: 'Supercurations' });
      await visible(results.getByRole('heading', { name: `${word} migration notes` }));
      await visible(results.getByRole('heading', { name: `${word} machine minds` }));
      expect(await results.getByRole('heading', { name: `${word} secret plans` }).count()).toBe(0);

      const ia = page.getByRole('button', { name: 'IA', exact: true });
      await ia.click();
      await expect.poll(() => ia.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => results.getByRole('article').count()).toBe(1);
      await visible(results.getByRole('heading', { name: `${word} machine minds` }));
      await ia.click();
      await expect.poll(() => results.getByRole('article').count()).toBe(2);

      await page.getByLabel('Search supercurations').fill(`${word} nothing-like-this`);
      await visible(page.getByText('No supercurations found'));
      await page.getByLabel('Search supercurations').fill(word);
      const link = results.getByRole('link', { name: `${word} migration notes` });
      expect(await link.getAttribute('href')).toBe(`/s/${slug}`);
      await link.click();
      await waitForPath(page, `/supercurations/public/${slug}`);
      await visible(page.getByRole('heading', { name: collection.title, level: 1 }));
    });
  });
}
