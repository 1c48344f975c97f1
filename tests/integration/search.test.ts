import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { LINK_MESSAGES, SEARCH_MESSAGES, type SearchQuery } from '../../shared/domain';
import { type Kysely, sql } from 'kysely';
import { PG_PENDING_LIST_KB, mergeSearchSegments, reindexLinks, searchSegmentsPending } from '../../server/db/link-search';
import * as readersMigration from '../../server/db/migrations/0022_link_search_readers';
import { foldAccents, pgFold } from '../../server/db/search';
import { makeNewLinkJobs } from '../../server/services/new-link-jobs';
import { signedInUser, testClient } from '../support/client';
import { describeEachDatabase } from '../support/each-database';
import { type User, createCollection, expectFailure } from '../support/supercurations';

/** A word no other test's link holds, so each test sees only its own links in a shared database. */
const unique = (prefix = 'zq') => `${prefix}${randomBytes(5).toString('hex').replace(/\d/g, (d) => 'abcdefghij'[Number(d)] as string)}`;
const url = (host = 'example.com') => `https://${host}/${unique('p')}`;

const titles = async (user: User, query: SearchQuery) => (await user.api.search(query)).items.map((i) => i.link.title);

describeEachDatabase('personal search', (ctx) => {
  async function users() {
    const [author, owner, collaborator, stranger] = await Promise.all(
      ['Author', 'Owner', 'Collaborator', 'Stranger'].map((n) => signedInUser(ctx.server.url, n)),
    );
    return { author: author as User, owner: owner as User, collaborator: collaborator as User, stranger: stranger as User };
  }

  /** The readable text of a link, as the readable-copy writer keeps it, then reindexed. */
  async function keepText(linkId: string, text: string) {
    // The link's copy job is made first (as the server's worker does within a moment): else it could land beside this one.
    await makeNewLinkJobs(ctx.server.db);
    await ctx.server.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('link_copies').where('link_id', '=', linkId).execute();
      await trx.insertInto('link_copies').values({ link_id: linkId, host: 'example.com', text_gz: gzipSync(text) }).execute();
      await reindexLinks(trx, [linkId]);
    });
  }

  it('finds the author, the owner and a collaborator of the collection; never a stranger; 401 for a visitor', async () => {
    const w = await users();
    const word = unique();
    const collection = await createCollection(w.owner, { isPublic: false });
    await w.owner.api.addCollaborator(collection.id, w.author.me.id);
    await w.owner.api.addCollaborator(collection.id, w.collaborator.me.id);
    await w.author.api.createLink({ title: `Secret ${word}`, description: 'Only for the team', url: url(), supercurationIds: [collection.id], inMainFeed: false });
    // A public link of the stranger's own is not in anyone else's personal search either.
    await w.stranger.api.createLink({ title: `Public ${word}`, description: 'For everyone', url: url() });
    for (const user of [w.author, w.owner, w.collaborator]) expect(await titles(user, { q: word })).toEqual([`Secret ${word}`]);
    expect(await titles(w.stranger, { q: word })).toEqual([`Public ${word}`]);
    await expectFailure(testClient(ctx.server.url).api.search({ q: word }), 401, SEARCH_MESSAGES.mustLogInToSearch);

    // A collaborator removed, then the collection made public: results follow at once.
    await w.owner.api.removeCollaborator(collection.id, w.collaborator.me.id);
    expect(await titles(w.collaborator, { q: word })).toEqual([]);
    await w.owner.api.updateSupercuration(collection.id, { isPublic: true, slug: unique('s') });
    expect(await titles(w.collaborator, { q: word })).toEqual([]);
    expect(await titles(w.owner, { q: word })).toEqual([`Secret ${word}`]);
  });

  it("finds a link as soon as it enters a collection the searcher edits, whichever way it enters", async () => {
    const w = await users();
    const word = unique();
    const collection = await createCollection(w.owner, { isPublic: false });
    await w.owner.api.addCollaborator(collection.id, w.author.me.id);
    const edited = await w.author.api.createLink({ title: `Edited ${word}`, description: 'd', url: url() });
    const added = await w.author.api.createLink({ title: `Added ${word}`, description: 'd', url: url() });
    expect(await titles(w.owner, { q: word })).toEqual([]);
    await w.author.api.updateLink(edited.id, { supercurationIds: [collection.id] });
    await w.author.api.addResource(collection.id, { linkId: added.id });
    await w.author.api.addResource(collection.id, { link: { title: `New ${word}`, description: 'd', url: url() } });
    await w.author.api.shareLinks({ items: [{ url: url(), title: `Batch ${word}`, description: 'd' }], supercurationIds: [collection.id] });
    // An import: a new link with a tag, and a link saved before, both filed by a folder mapped to the collection.
    const saved = await w.author.api.createLink({ title: `Saved ${word}`, description: 'd', url: url() });
    const tag = unique();
    const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p><DT><H3>Team</H3><DL><p>
      <DT><A HREF="${url()}" TAGS="${tag}">Imported ${word}</A>
      <DT><A HREF="${saved.url}">Saved again</A>
    </DL><p></DL><p>`;
    await w.author.api.importBookmarks(new Blob([file], { type: 'text/html' }), { mapping: { Team: { type: 'collection', id: collection.id } } });
    expect(await titles(w.author, { q: tag })).toEqual([`Imported ${word}`]);
    // A collaborator who joins later finds them too: the index names the collection, not its editors.
    await w.owner.api.addCollaborator(collection.id, w.collaborator.me.id);
    const all = [`Added ${word}`, `Batch ${word}`, `Edited ${word}`, `Imported ${word}`, `New ${word}`, `Saved ${word}`];
    for (const user of [w.owner, w.collaborator]) expect((await titles(user, { q: word })).sort()).toEqual(all);
    // Taken out again, the link is the author's alone.
    await w.author.api.updateLink(edited.id, { supercurationIds: [] });
    expect((await titles(w.collaborator, { q: word })).sort()).toEqual(all.filter((t) => t !== `Edited ${word}`));
    expect(await titles(w.author, { q: `edited ${word}` })).toEqual([`Edited ${word}`]);
  });

  it('matches whole words, and the beginnings of words with word*', async () => {
    const { author } = await users();
    const stem = unique();
    await author.api.createLink({ title: `On ${stem}osis`, description: 'd', url: url() });
    await author.api.createLink({ title: `On ${stem}`, description: 'd', url: url() });
    expect(await titles(author, { q: stem })).toEqual([`On ${stem}`]);
    expect((await titles(author, { q: `${stem}*` })).sort()).toEqual([`On ${stem}`, `On ${stem}osis`]);
    expect(await titles(author, { q: `${stem}* -${stem}` })).toEqual([`On ${stem}osis`]);
    expect(await titles(author, { q: `${stem}* -${stem}*` })).toEqual([]);
  });

  it('a collection made private keeps its resources from an editor of another collection holding a repost', async () => {
    const w = await users();
    const word = unique();
    const shared = await createCollection(w.author, { isPublic: true });
    const link = await w.author.api.createLink({ title: `Original ${word}`, description: 'd', url: url(), supercurationIds: [shared.id], inMainFeed: false });
    const repost = await w.owner.api.repost(link.id);
    expect(await titles(w.owner, { q: word })).toEqual([`Original ${word}`]);
    // The original is seen no more: its reposter still sees their copy (canSeeLink), and finds it.
    await w.author.api.updateSupercuration(shared.id, { isPublic: false });
    expect((await w.owner.api.search({ q: word })).items.map((i) => i.link.id)).toEqual([repost.id]);
    // An editor of a collection holding the repost, who may not see the original, does not.
    const mine = await createCollection(w.owner, { isPublic: false });
    await w.owner.api.updateLink(repost.id, { supercurationIds: [mine.id] });
    await w.owner.api.addCollaborator(mine.id, w.collaborator.me.id);
    expect(await titles(w.collaborator, { q: word })).toEqual([]);
  });

  it('ranks the title over the description over the readable text, and keeps the index in step with edits and deletes', async () => {
    const { author } = await users();
    const word = unique();
    // Saved in the reverse of the rank's order, so that newest first would read them backwards.
    const inTitle = await author.api.createLink({ title: `First ${word}`, description: 'Plain', url: url() });
    const inDescription = await author.api.createLink({ title: 'Second', description: `About ${word}`, url: url() });
    const inText = await author.api.createLink({ title: 'Third', description: 'Nothing here', url: url() });
    await keepText(inText.id, `A long article that mentions ${word} once.`);
    expect(await titles(author, { q: word })).toEqual(['First ' + word, 'Second', 'Third']);
    // Within a tier, newest first.
    const alsoInTitle = await author.api.createLink({ title: `Also first ${word}`, description: 'Plain', url: url() });
    expect(await titles(author, { q: word })).toEqual([alsoInTitle.title, 'First ' + word, 'Second', 'Third']);
    await author.api.deleteLink(alsoInTitle.id);

    const renamed = unique();
    await author.api.updateLink(inTitle.id, { title: `Renamed ${renamed}` });
    expect(await titles(author, { q: word })).toEqual(['Second', 'Third']);
    expect(await titles(author, { q: renamed })).toEqual([`Renamed ${renamed}`]);
    // A new URL is a new page: the old page's text is no longer found.
    await author.api.updateLink(inText.id, { url: url() });
    expect(await titles(author, { q: word })).toEqual(['Second']);
    await author.api.deleteLink(inDescription.id);
    expect(await titles(author, { q: word })).toEqual([]);
  });

  it('follows a topic renamed and deleted; topic: and the topic filter', async () => {
    const { author } = await users();
    const word = unique();
    const topic = await author.api.createTopic({ name: `Gardening ${word}`, color: '#123456' });
    const link = await author.api.createLink({ title: 'Tomatoes', description: 'Growing them', url: url(), topicIds: [topic.id] });
    await author.api.createLink({ title: `Other ${word}`, description: 'x', url: url() });
    expect(await titles(author, { q: `gardening ${word}` })).toEqual(['Tomatoes']);
    expect(await titles(author, { q: `topic:"Gardening ${word}"` })).toEqual(['Tomatoes']);
    expect(await titles(author, { q: word, topic: topic.id })).toEqual(['Tomatoes']);

    const renamed = unique();
    await author.api.updateTopic(topic.id, { name: `Botany ${renamed}` });
    expect(await titles(author, { q: renamed })).toEqual(['Tomatoes']);
    expect(await titles(author, { q: `gardening ${word}` })).toEqual([]);
    await author.api.deleteTopic(topic.id);
    expect(await titles(author, { q: renamed })).toEqual([]);
    expect((await author.api.search({ q: 'tomatoes' })).items.map((i) => i.link.id)).toContain(link.id);
  });

  it('reads phrases, exclusions, site:, in: and hyphenated words; ignores accents', async () => {
    const { author } = await users();
    const w = unique();
    const collection = await createCollection(author, { title: `Reading list ${w}` });
    await author.api.createLink({ title: `${w} red apple pie`, description: 'Recipe', url: url('blog.example.org'), supercurationIds: [collection.id] });
    await author.api.createLink({ title: `${w} apple red pie`, description: 'Recipe', url: url('example.org') });
    await author.api.createLink({ title: `${w} crème brûlée`, description: 'Dessert for x-2024', url: url('notexample.org') });
    expect(await titles(author, { q: `${w} "red apple"` })).toEqual([`${w} red apple pie`]);
    expect((await titles(author, { q: `${w} apple -red` })).length).toBe(0);
    expect(await titles(author, { q: `${w} -apple` })).toEqual([`${w} crème brûlée`]);
    expect((await titles(author, { q: `${w} site:example.org` })).sort()).toEqual([`${w} apple red pie`, `${w} red apple pie`]);
    expect(await titles(author, { q: `${w} site:blog.example.org` })).toEqual([`${w} red apple pie`]);
    expect(await titles(author, { q: `in:"reading list ${w}"` })).toEqual([`${w} red apple pie`]);
    expect(await titles(author, { q: w, collection: collection.id })).toEqual([`${w} red apple pie`]);
    expect(await titles(author, { q: `${w} creme brulee` })).toEqual([`${w} crème brûlée`]);
    expect(await titles(author, { q: `${w} CRÈME` })).toEqual([`${w} crème brûlée`]);
    await author.api.createLink({ title: `${w} Ångström, Señor`, description: 'Units', url: url() });
    expect(await titles(author, { q: `${w} angstrom senor` })).toEqual([`${w} Ångström, Señor`]);
    expect(await titles(author, { q: `${w} ÅNGSTRÖM` })).toEqual([`${w} Ångström, Señor`]);
    if (ctx.server.db.dialect === 'postgres') {
      // Documents are folded in JavaScript, the directory's in SQL: the same fold.
      const letters = `${Array.from({ length: 0x250 - 0xc0 }, (_, i) => String.fromCharCode(0xc0 + i)).join('')}ØŁĐĦıß ABC xyz`;
      const folded = await sql<{ f: string }>`select ${sql.raw(pgFold('t.x'))} as f from (select ${letters}::text as x) t`.execute(ctx.server.db.kysely);
      expect(folded.rows[0]?.f).toBe(foldAccents(letters));
    }
    expect(await titles(author, { q: `${w} x-2024` })).toEqual([`${w} crème brûlée`]);
    expect(await titles(author, { q: `${w} 2024` })).toEqual([`${w} crème brûlée`]);
  });

  it('answers snippets with the matched words in <mark> and everything else escaped', async () => {
    const { author } = await users();
    const w = unique();
    await author.api.createLink({ title: 'Markup', description: `<script>alert(1)</script> & ${w}'s "quotes" Café`, url: url() });
    const [hit] = (await author.api.search({ q: `${w} cafe` })).items;
    expect(hit?.snippet).toBe(`&lt;script&gt;alert(1)&lt;/script&gt; &amp; <mark>${w}</mark>&#39;s &quot;quotes&quot; <mark>Café</mark>`);
    const withText = await author.api.createLink({ title: `Text ${w}`, description: 'Short', url: url() });
    await keepText(withText.id, `${'Lorem ipsum dolor sit amet. '.repeat(20)}The <b>needle${w}</b> is here.${' More words.'.repeat(30)}`);
    const [textHit] = (await author.api.search({ q: `needle${w}` })).items;
    expect(textHit?.snippet).toMatch(new RegExp(`^….*&lt;b&gt;<mark>needle${w}</mark>&lt;/b&gt; is here\\..*…$`));
  });

  it('filters by format and saved date, and pages', async () => {
    const { author } = await users();
    const w = unique();
    for (let i = 0; i < 12; i += 1) await author.api.createLink({ title: `${w} ${i}`, description: 'd', url: url(), format: i === 0 ? 'video' : null });
    expect(await titles(author, { q: w, format: 'video' })).toEqual([`${w} 0`]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await author.api.search({ q: w, from: today, to: today })).items).toHaveLength(10);
    expect((await author.api.search({ q: w, to: '2000-01-01' })).items).toHaveLength(0);
    const first = await author.api.search({ q: w });
    expect(first.nextCursor).not.toBeNull();
    const second = await author.api.search({ q: w, cursor: first.nextCursor ?? '' });
    expect(new Set([...first.items, ...second.items].map((i) => i.link.title)).size).toBe(12);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses bad input with a 400 and a clear message', async () => {
    const { author } = await users();
    await expectFailure(author.api.search({ q: '   ' }), 400, SEARCH_MESSAGES.emptyQuery);
    await expectFailure(author.api.search({ q: 'x', from: '2024-02-30' }), 400, SEARCH_MESSAGES.invalidDate);
    await expectFailure(author.api.search({ q: 'x', from: 'yesterday' }), 400, SEARCH_MESSAGES.invalidDate);
    await expectFailure(author.api.search({ q: 'x', from: '2024-03-02', to: '2024-03-01' }), 400, SEARCH_MESSAGES.dateOrder);
    await expectFailure(author.api.search({ q: 'x'.repeat(201) }), 400, SEARCH_MESSAGES.queryTooLong);
    await expectFailure(author.api.search({ q: 'x', cursor: 'nope' }), 400, LINK_MESSAGES.invalidCursor);
    await expectFailure(author.api.search({ q: 'x', format: 'nope' as 'video' }), 400, expect.any(String) as unknown as string);
    // Syntax is never an error: stray quotes and operators are read as words.
    expect((await author.api.search({ q: '"unclosed -" site: in: topic:' })).items).toEqual([]);
  });

  it('migration 0022 rebuilds the index with its readers from the links saved before it', async () => {
    const w = await users();
    const word = unique();
    const collection = await createCollection(w.owner, { isPublic: false });
    await w.owner.api.addCollaborator(collection.id, w.author.me.id);
    await w.owner.api.addCollaborator(collection.id, w.collaborator.me.id);
    const link = await w.author.api.createLink({ title: 'Before the upgrade', description: 'd', url: url(), supercurationIds: [collection.id] });
    await keepText(link.id, `Kept text with ${word} in it.`);
    const db = ctx.server.db.kysely as Kysely<unknown>;
    await readersMigration.down(db);
    await readersMigration.up(db);
    for (const user of [w.author, w.owner, w.collaborator]) expect(await titles(user, { q: word })).toEqual(['Before the upgrade']);
    expect(await titles(w.stranger, { q: word })).toEqual([]);
    if (ctx.server.db.dialect === 'postgres') {
      // The rebuilt index keeps its pending list small (migration 0023): every search reads all of it.
      const index = await sql<{ options: string[] }>`select reloptions as options from pg_class where relname = 'link_search_doc'`.execute(db);
      expect(index.rows[0]?.options).toEqual([`gin_pending_list_limit=${PG_PENDING_LIST_KB}`]);
    } else {
      // The build's segments wait for the background merge (mergeSearchSegments, the server's
      // worker); writes meanwhile add more. The merge leaves fewer, finding the same, and FTS5's
      // bulk-load settings put back: later writes merge as they come.
      const k = ctx.server.db.kysely;
      expect(await searchSegmentsPending(k)).toBe(true);
      for (let i = 0; i < 6; i++) await keepText(link.id, `Kept text with ${word} in it, version ${i}.`);
      const segments = async () => Number((await sql<{ n: number }>`select count(distinct segid) as n from link_search_idx`.execute(db)).rows[0]?.n);
      const before = await segments();
      let steps = 0;
      while (await mergeSearchSegments(k, 1)) steps += 1;
      expect(steps).toBeGreaterThan(0);
      expect(await segments()).toBeLessThan(before);
      expect(await searchSegmentsPending(k)).toBe(false);
      const options = await sql<{ k: string; v: number }>`select k, v from link_search_config where k <> 'version' order by k`.execute(db);
      expect(options.rows).toEqual([
        { k: 'automerge', v: 4 },
        { k: 'crisismerge', v: 16 },
        { k: 'hashsize', v: 1024 * 1024 },
      ]);
      for (const user of [w.author, w.owner, w.collaborator]) expect(await titles(user, { q: word })).toEqual(['Before the upgrade']);
      expect(await titles(w.stranger, { q: word })).toEqual([]);
    }
  });
});
